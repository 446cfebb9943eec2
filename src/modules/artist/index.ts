import { isUuid } from '../../common/validation';
import type { Context } from '../../request/context';
import type { AppModule } from '../module';
import { AccountSocial, RosterEntry, Social } from './artist.entity';
import { createArtistLoaders } from './artist.loaders';
import { artistOperations } from './artist.operations';
import { artistPrefetch } from './artist.prefetch';
import { ArtistRepository } from './artist.repository';
import { ArtistGraphResolver, ArtistResolver, artistService } from './artist.resolver';
import { ArtistService } from './artist.service';
import { Artist } from './artist.types';

/**
 * For other modules: the graph's Artist, the artist rules (ArtistService, built for a request by
 * artistService) and the roster's storage (ArtistRepository: roster checks, roster artists).
 */
export { Artist, ArtistRepository, ArtistService, artistService };
export { artistName } from './artist.inputs';

export const artistModule = {
  name: 'artist',
  entities: [RosterEntry, Social, AccountSocial],
  resolvers: [ArtistResolver, ArtistGraphResolver],
  operations: artistOperations,
  loaders: createArtistLoaders,
  prefetch: artistPrefetch,
  references: {
    /** Only an artist the caller reaches resolves (as Query.artist); any other is null. */
    Artist: {
      async __resolveReference(ref: { id: string }, ctx: Context): Promise<Artist | null> {
        if (!ctx.viewer || !isUuid(ref.id)) return null;
        return artistService(ctx).reachableArtist(ctx.viewer, ref.id);
      },
    },
  },
} satisfies AppModule;
