import 'reflect-metadata';
import { graphql, GraphQLObjectType, GraphQLSchema } from 'graphql';
import { Authorized, Field, FieldResolver, MiddlewareFn, ObjectType, Query, Resolver, Root, UseMiddleware } from 'type-graphql';
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
