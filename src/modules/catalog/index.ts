import type { Viewer } from '../../auth/viewer';
import { isUuid } from '../../common/validation';
import type { Context } from '../../request/context';
import { withViewer } from '../../graphql/params';
import type { AppModule } from '../module';
import { AccountCatalog, Catalog as CatalogEntity, CatalogSong, CatalogSongArtist } from './catalog.entity';
import { CANONICAL_ISRC, normalizeIsrc } from './catalog.inputs';
import { createCatalogLoaders } from './catalog.loaders';
import { catalogOperations } from './catalog.operations';
import { catalogPrefetch } from './catalog.prefetch';
import { ArtistCatalogResolver, CatalogGraphResolver, CatalogResolver, catalogService, SongGraphResolver } from './catalog.resolver';
import type { Catalog } from './catalog.types';
import { Song } from './catalog.types';

/** The graph's Song, for other modules' field resolvers. */
export { Song };

/**
 * The Song an ISRC is to the caller, for other modules: as Query.song, only an ISRC held in a
 * catalog the caller reaches resolves (else null); batched per request.
 */
export function reachableSong(ctx: Context, viewer: Viewer, isrc: string): Promise<Song | null> {
  const canonical = normalizeIsrc(isrc);
  return CANONICAL_ISRC.test(canonical) ? catalogService(ctx).songOf(viewer, canonical) : Promise.resolve(null);
}

export const catalogModule = {
  name: 'catalog',
  entities: [CatalogEntity, AccountCatalog, CatalogSong, CatalogSongArtist],
  resolvers: [CatalogResolver, CatalogGraphResolver, SongGraphResolver, ArtistCatalogResolver],
  operations: catalogOperations,
  loaders: createCatalogLoaders,
  prefetch: catalogPrefetch,
  references: {
    /** Only a catalog the caller reaches resolves; any other is null. */
    Catalog: {
      __resolveReference: withViewer(async (ref: { id: string }, ctx, viewer): Promise<Catalog | null> => {
        if (!isUuid(ref.id)) return null;
        return catalogService(ctx).reachableCatalog(viewer, ref.id);
      }),
    },
    Song: {
      // As Query.song: only an ISRC held in a catalog the caller reaches resolves; without credentials UNAUTHENTICATED.
      __resolveReference: withViewer((ref: { isrc: string }, ctx, viewer): Promise<Song | null> => reachableSong(ctx, viewer, typeof ref.isrc === 'string' ? ref.isrc : '')),
    },
  },
} satisfies AppModule;
