import 'reflect-metadata';
import { graphql, GraphQLObjectType, GraphQLResolveInfo } from 'graphql';
import { Arg, Authorized, Field, FieldResolver, Int, ObjectType, Query, Resolver, Root } from 'type-graphql';
import { resolvers } from '../modules';
import type { Context } from '../request/context';
import { ReadAhead } from './read-ahead';
import { buildPlainSchema } from './schema';

@ObjectType('Credit')
class Credit {
  @Field() name!: string;
}

@ObjectType('Entry')
class Entry {
  @Field() isrc!: string;
  credits?: Credit[] | null;
}

let resolved: string[] = [];

@Resolver(() => Entry)
class EntryResolver {
  @Query(() => [Entry])
  entries(): Entry[] {
    return [{ isrc: 'read-ahead', credits: [{ name: 'Ada' }] }, { isrc: 'absent' }, { isrc: 'null', credits: null }, { isrc: 'empty', credits: [] }];
  }

  @ReadAhead('credits')
  @FieldResolver(() => [Credit])
  async credits(@Root() entry: Entry): Promise<Credit[]> {
    resolved.push(entry.isrc);
    return entry.credits ?? [{ name: `loaded for ${entry.isrc}` }];
  }
}

describe('@ReadAhead: a field answered from its parent when the parent was read with it', () => {
  beforeEach(() => {
    resolved = [];
  });

  it('answers the parent’s value without calling the resolver, and calls it when the value is absent or null', async () => {
    const schema = await buildPlainSchema({ resolvers: [EntryResolver] });
    const answer = await graphql({ schema, source: '{ entries { isrc credits { name } } }', contextValue: {} as Context });
    expect(answer.errors).toBeUndefined();
    expect(answer.data).toEqual({
      entries: [
        { isrc: 'read-ahead', credits: [{ name: 'Ada' }] },
        { isrc: 'absent', credits: [{ name: 'loaded for absent' }] },
        { isrc: 'null', credits: [{ name: 'loaded for null' }] },
        // An empty list read ahead is an answer: no credits, and no call.
        { isrc: 'empty', credits: [] },
      ],
    });
    expect(resolved).toEqual(['absent', 'null']);
  });

  it('answers a present value synchronously (no promise per item of a page)', async () => {
    const schema = await buildPlainSchema({ resolvers: [EntryResolver] });
    const field = (schema.getType('Entry') as GraphQLObjectType).getFields().credits;
    const credits = [{ name: 'Ada' }];
    expect(field.resolve!({ isrc: 'x', credits }, {}, {}, {} as GraphQLResolveInfo)).toBe(credits);
  });

  it("is on the app's Song.credits: a song read with its credits answers them as read", async () => {
    const schema = await buildPlainSchema({ resolvers });
    const credits = (schema.getType('Song') as GraphQLObjectType).getFields().credits;
    const read = [{ id: 'a', name: 'Ada', timestamp: 1 }];
    expect(credits.resolve!({ entry_id: 'e', credits: read }, {}, {} as Context, {} as GraphQLResolveInfo)).toBe(read);
  });
});

describe('@ReadAhead is refused at start-up where skipping the resolver would skip more than the call', () => {
  it('on a field with arguments (the resolver would apply them to the answer)', async () => {
    @ObjectType('PagedEntry')
    class PagedEntry {
      @Field() isrc!: string;
    }
    @Resolver(() => PagedEntry)
    class PagedResolver {
      @Query(() => PagedEntry)
      paged(): PagedEntry {
        return { isrc: 'p' };
      }
      @ReadAhead('credits')
      @FieldResolver(() => [String])
      credits(@Root() _entry: PagedEntry, @Arg('first', () => Int) first: number): string[] {
        return [String(first)];
      }
    }
    await expect(buildPlainSchema({ resolvers: [PagedResolver] })).rejects.toThrow('@ReadAhead on PagedEntry.credits: the field has arguments');
  });

  it('on a field with @Authorized (answering from the parent would skip the check)', async () => {
    @ObjectType('GuardedEntry')
    class GuardedEntry {
      @Field() isrc!: string;
    }
    @Resolver(() => GuardedEntry)
    class GuardedResolver {
      @Query(() => GuardedEntry)
      guarded(): GuardedEntry {
        return { isrc: 'g' };
      }
      @Authorized()
      @ReadAhead('secret')
      @FieldResolver(() => String)
      secret(): string {
        return 'resolved';
      }
    }
    await expect(buildPlainSchema({ resolvers: [GuardedResolver] })).rejects.toThrow('@ReadAhead on GuardedEntry.secret: the field has @Authorized or middlewares');
  });

  it('on a plain field (there is no resolver to stand in for)', async () => {
    @ObjectType('PlainEntry')
    class PlainEntry {
      @ReadAhead('isrc')
      @Field()
      isrc!: string;
    }
    @Resolver(() => PlainEntry)
    class PlainResolver {
      @Query(() => PlainEntry)
      plain(): PlainEntry {
        return { isrc: 'p' };
      }
    }
    await expect(buildPlainSchema({ resolvers: [PlainResolver] })).rejects.toThrow('@ReadAhead on PlainEntry.isrc: it marks a field resolver');
  });
});
