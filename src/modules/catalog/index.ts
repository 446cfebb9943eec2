import { requireViewer } from '../../auth/access';
import type { Context } from '../../graphql/context';
import { isUuid } from '../../common/validation';
import type { AppModule } from '../module';
import { createCatalogLoaders } from './catalog.loaders';
import { AccountCatalog, Catalog as CatalogEntity, CatalogSong, CatalogSongArtist } from './catalog.entity';
import { CANONICAL_ISRC, normalizeIsrc } from './catalog.inputs';
import { songReachLoaders } from './catalog.loaders';
import { ArtistCatalogResolver, CatalogGraphResolver, CatalogResolver, SongGraphResolver } from './catalog.resolver';
import { catalogOperations } from './catalog.operations';
import type { Catalog } from './catalog.types';
import { Song } from './catalog.types';

/** The graph's Song, for other modules' field resolvers. */
export { Song };

/**
 * The Song an ISRC is to the caller, for other modules: as Query.song, only an ISRC held in a
 * catalog the caller reaches resolves (else null); batched per request. Without credentials UNAUTHENTICATED.
 */
export function reachableSong(ctx: Context, isrc: string): Promise<Song | null> {
  requireViewer(ctx.viewer);
  const canonical = normalizeIsrc(isrc);
  return CANONICAL_ISRC.test(canonical) ? songReachLoaders(ctx).songByIsrc.load(canonical) : Promise.resolve(null);
}

export const catalogModule = {
  name: 'catalog',
  entities: [CatalogEntity, AccountCatalog, CatalogSong, CatalogSongArtist],
  resolvers: [CatalogResolver, CatalogGraphResolver, SongGraphResolver, ArtistCatalogResolver],
  operations: catalogOperations,
  loaders: createCatalogLoaders,
  references: {
    /** Only a catalog the caller reaches resolves; any other is null. */
    Catalog: {
      async __resolveReference(ref: { id: string }, ctx: Context): Promise<Catalog | null> {
        const viewer = requireViewer(ctx.viewer);
        if (!isUuid(ref.id)) return null;
        const row = await ctx.access.catalogAccessBatched(viewer, ref.id);
        return row?.reachable ? { id: row.id, name: row.name, created_at: row.created_at, updated_at: row.updated_at } : null;
      },
    },
    Song: {
      // As Query.song: only an ISRC held in a catalog the caller reaches resolves; without credentials UNAUTHENTICATED.
      __resolveReference(ref: { isrc: string }, ctx: Context): Promise<Song | null> {
        return reachableSong(ctx, typeof ref.isrc === 'string' ? ref.isrc : '');
      },
    },
  },
} satisfies AppModule;
