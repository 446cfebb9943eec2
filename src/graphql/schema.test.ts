import 'reflect-metadata';
import { graphql, GraphQLObjectType, GraphQLResolveInfo, GraphQLSchema } from 'graphql';
import { Authorized, buildSchema, Field, FieldResolver, getMetadataStorage, MiddlewareFn, ObjectType, Query, Resolver, Root, UseMiddleware } from 'type-graphql';
import { resolvers } from '../modules';
import { buildPlainSchema } from './schema';
import type { Context } from '../request/context';

const shout: MiddlewareFn = async (_data, next) => String(await next()).toUpperCase();

@ObjectType('Track')
class Track {
  @Field() title!: string;
  @Field({ name: 'displayName' }) label!: string;
  @Field({ nullable: true }) @Authorized() secret?: string;
  @Field() @UseMiddleware(shout) loud!: string;
  @Field() slug!: string;
}

@Resolver(() => Track)
class TrackResolver {
  @Query(() => Track)
  track(): Track {
    return { title: 'Plain', label: 'Label', secret: 'hidden', loud: 'quiet', slug: 'stored' };
  }

  @FieldResolver(() => String)
  slug(@Root() track: Track): string {
    return `${track.title.toLowerCase()}-resolved`;
  }
}

describe('plain fields read without a resolver of their own', () => {
  let schema: GraphQLSchema;
  const run = (viewer: unknown) =>
    graphql({ schema, source: '{ track { title displayName secret loud slug } }', contextValue: { viewer } as unknown as Context });

  beforeAll(async () => {
    schema = await buildPlainSchema({ resolvers: [TrackResolver] });
  });

  it('drops only the resolvers that do nothing but read the property', () => {
    const fields = (schema.getType('Track') as GraphQLObjectType).getFields();
    expect(fields.title.resolve).toBeUndefined();
    // Renamed, guarded, with a middleware, or with a field resolver: type-graphql's resolver stays.
    expect(fields.displayName.resolve).toBeDefined();
    expect(fields.secret.resolve).toBeDefined();
    expect(fields.loud.resolve).toBeDefined();
    expect(fields.slug.resolve).toBeDefined();
  });

  it('answers as before: properties read, renames, middlewares, field resolvers and @Authorized still applied', async () => {
    const answer = await run({ accountId: 'a' });
    expect(answer.errors).toBeUndefined();
    expect(answer.data).toEqual({ track: { title: 'Plain', displayName: 'Label', secret: 'hidden', loud: 'QUIET', slug: 'plain-resolved' } });
    const anonymous = await run(null);
    expect(anonymous.data).toEqual({ track: { title: 'Plain', displayName: 'Label', secret: null, loud: 'QUIET', slug: 'plain-resolved' } });
    expect(anonymous.errors?.map((error) => [error.path, (error.originalError as { code?: string } | undefined)?.code])).toEqual([[['track', 'secret'], 'UNAUTHENTICATED']]);
  });
});

/**
 * readPlainFieldsDirectly (schema.ts) reads type-graphql's metadata storage, which is not a
 * documented API: an upgrade that renames or reshapes what it reads would silently stop the
 * optimization (or, worse, drop a resolver that guards or renames). These pin what it relies on.
 */
describe('the type-graphql metadata readPlainFieldsDirectly reads', () => {
  const READ = ['name', 'schemaName', 'target', 'params', 'roles', 'middlewares'] as const;
  const fieldsOf = (target: typeof Track) => {
    const objectType = getMetadataStorage().objectTypes.find((type) => type.target === target);
    expect(objectType).toMatchObject({ name: 'Track', target });
    return Object.fromEntries(
      (objectType!.fields ?? []).map((field) => {
        for (const key of READ) expect(Object.keys(field)).toContain(key);
        return [field.name, { schemaName: field.schemaName, target: field.target, params: field.params?.length, roles: field.roles, middlewares: field.middlewares }];
      }),
    );
  };

  beforeAll(async () => {
    await buildPlainSchema({ resolvers: [TrackResolver] });
  });

  it('object types: name, target and fields with their property name, schema name, class, parameters, roles and middlewares', () => {
    expect(fieldsOf(Track)).toEqual({
      title: { schemaName: 'title', target: Track, params: 0, roles: undefined, middlewares: [] },
      label: { schemaName: 'displayName', target: Track, params: 0, roles: undefined, middlewares: [] },
      // @Authorized() with no roles is an empty list, not undefined: the check is `roles !== undefined`.
      secret: { schemaName: 'secret', target: Track, params: 0, roles: [], middlewares: [] },
      loud: { schemaName: 'loud', target: Track, params: 0, roles: undefined, middlewares: [shout] },
      // A field resolver's parameters are copied onto the field when the schema is built.
      slug: { schemaName: 'slug', target: Track, params: 1, roles: undefined, middlewares: [] },
    });
  });

  it('field resolvers: the method name and getObjectType() giving the class they resolve for', () => {
    const slug = getMetadataStorage().fieldResolvers.filter((resolver) => resolver.target === TrackResolver);
    expect(slug.map((resolver) => ({ methodName: resolver.methodName, objectType: resolver.getObjectType?.() }))).toEqual([{ methodName: 'slug', objectType: Track }]);
  });

  it('type-graphql still gives a plain field a resolver of its own that reads the property (what the optimization removes)', async () => {
    const bare = await buildSchema({ resolvers: [TrackResolver], authChecker: () => true, validate: false });
    const title = (bare.getType('Track') as GraphQLObjectType).getFields().title;
    expect(title.resolve).toBeInstanceOf(Function);
    expect(await title.resolve!({ title: 'read' }, {}, {}, {} as GraphQLResolveInfo)).toBe('read');
  });

  it("is applied to the app's own types: plain fields read directly, renamed ones by property, field resolvers kept", async () => {
    const schema = await buildPlainSchema({ resolvers });
    const song = (schema.getType('Song') as GraphQLObjectType).getFields();
    expect(song.isrc.resolve).toBeUndefined();
    expect(song.name.resolve).toBeUndefined();
    expect(song.updatedAt.resolve).toBeInstanceOf(Function);
    const at = new Date();
    expect(await song.updatedAt.resolve!({ updated_at: at }, {}, {}, {} as GraphQLResolveInfo)).toBe(at);
    expect(song.credits.resolve).toBeInstanceOf(Function);
  });
});
