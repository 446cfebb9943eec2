import type { Context } from '../../graphql/context';
import { AccountKind } from '../account';
import type { AppModule } from '../module';
import { createArtistLoaders } from './artist.loaders';
import { AccountSocial, RosterEntry, Social } from './artist.entity';
import { ArtistGraphResolver, ArtistResolver } from './artist.resolver';
import { artistOperations } from './artist.operations';
import { ArtistService } from './artist.service';
import { Artist } from './artist.types';

/** For other modules: the graph's Artist and the artist access rules. */
export { Artist, ArtistService };
export { artistName } from './artist.inputs';
import { isUuid } from '../../common/validation';

export const artistModule = {
  name: 'artist',
  entities: [RosterEntry, Social, AccountSocial],
  resolvers: [ArtistResolver, ArtistGraphResolver],
  operations: artistOperations,
  loaders: createArtistLoaders,
  references: {
    /** Only an artist the caller reaches resolves (as Query.artist); any other is null. */
    Artist: {
      async __resolveReference(ref: { id: string }, ctx: Context): Promise<Artist | null> {
        if (!ctx.viewer || !isUuid(ref.id)) return null;
        const account = await ctx.loaders.accountById.load(ref.id);
        if (!account || account.kind !== AccountKind.artist) return null;
        return (await new ArtistService(ctx).canReach(account.id)) ? { id: account.id, name: account.name } : null;
      },
    },
  },
} satisfies AppModule;
