import { withoutNulls } from '../../common/validation';
import { childFields, onlyField, Prefetches } from '../../graphql/prefetch';
import { catalogSongsFieldInput } from './catalog.inputs';
import { CatalogRepository } from './catalog.repository';
import type { Catalog, CatalogAccount, Song } from './catalog.types';

interface CatalogsAhead {
  reachable: boolean;
  catalogs: (Omit<Catalog, 'created_at' | 'updated_at'> & {
    created_at: string;
    updated_at: string;
    accounts?: CatalogAccount[];
    songs?: { total: number; items: (Omit<Song, 'updated_at'> & { updated_at: string })[] };
  })[];
}

/**
 * Artist.catalogs read ahead in the statement of the artists' list (a roster): the catalogs, their
 * accounts and one page of each catalog's songs with their credits, when the selection asks for
 * them with one set of arguments. Anything else selected below is left to its resolver.
 */
export const catalogPrefetch: Prefetches = {
  'Artist.catalogs': {
    sql(ctx, field, artistId) {
      const catalogType = field.type;
      if (!ctx.viewer || !catalogType) return null;
      const below = childFields(field.info, [field.node.selectionSet], catalogType);
      const songs = onlyField(below, 'songs');
      const accounts = below.some((f) => f.node.name.value === 'accounts');
      let page: { offset: number; limit: number; filter: string | null } | undefined;
      if (songs) {
        const parsed = catalogSongsFieldInput.safeParse(withoutNulls(songs.args));
        // An invalid page is answered by the field's own resolver (its error names the argument).
        if (!parsed.success) return null;
        const { page: number, limit, artistName } = parsed.data;
        page = { offset: (number - 1) * limit, limit, filter: artistName ? artistName.toLowerCase() : null };
      }
      return new CatalogRepository(ctx.em).artistCatalogsJson(ctx.viewer, artistId, { accounts, songs: page });
    },

    prime(ctx, field, artistId, value) {
      const viewer = ctx.viewer;
      if (!viewer || !value) return;
      const ahead = value as CatalogsAhead;
      ctx.access.primeReach(viewer, artistId, ahead.reachable);
      const below = field.type ? childFields(field.info, [field.node.selectionSet], field.type) : [];
      const songsField = onlyField(below, 'songs');
      const songsArgs = songsField ? catalogSongsFieldInput.safeParse(withoutNulls(songsField.args)) : undefined;
      const catalogs: Catalog[] = [];
      for (const { accounts, songs, ...row } of ahead.catalogs) {
        const catalog = { ...row, created_at: new Date(row.created_at), updated_at: new Date(row.updated_at) };
        catalogs.push(catalog);
        if (accounts) ctx.loaders.accountsByCatalog.prime(catalog.id, accounts);
        if (songs && songsArgs?.success) {
          const { page, limit, artistName } = songsArgs.data;
          const rows = songs.items.map((song) => ({ ...song, updated_at: new Date(song.updated_at) }));
          ctx.loaders.catalogSongsPage.prime({ id: catalog.id, page, limit, filter: artistName ? artistName.toLowerCase() : null }, { rows, total: Number(songs.total) });
        }
      }
      ctx.loaders.reachableCatalogsByArtist.prime({ viewer, id: artistId }, catalogs);
    },
  },
};
