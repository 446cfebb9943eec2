import { childFields, onlyField, PrefetchField, Prefetches } from '../../graphql/prefetch';
import { CatalogSongsFieldArgs, catalogSongsFieldRequest } from './catalog.inputs';
import { CatalogRepository, songsOf, SongsPageJson } from './catalog.repository';
import type { Catalog, CatalogAccount } from './catalog.types';

interface CatalogsAhead {
  reachable: boolean;
  catalogs: (Omit<Catalog, 'created_at' | 'updated_at'> & {
    created_at: string;
    updated_at: string;
    accounts?: CatalogAccount[];
    songs?: SongsPageJson;
  })[];
}

/**
 * The fields selected on the catalogs of Artist.catalogs (a CatalogPage): those on its `items`,
 * when they are selected once (an aliased second selection is left to the resolvers).
 */
function catalogFields(field: PrefetchField): PrefetchField[] {
  const items = field.type ? onlyField(childFields(field.info, [field.node.selectionSet], field.type), 'items') : undefined;
  return items?.type ? childFields(field.info, [items.node.selectionSet], items.type) : [];
}

/** The page Catalog.songs asks for with these arguments; null when they are invalid. */
function songsRequest(args: Record<string, unknown>): ReturnType<typeof catalogSongsFieldRequest> | null {
  try {
    return catalogSongsFieldRequest(args as CatalogSongsFieldArgs);
  } catch {
    return null;
  }
}

/**
 * Artist.catalogs read ahead in the statement of the artists' list (a roster): the catalogs, their
 * accounts and one page of each catalog's songs with their credits, when the selection asks for
 * them with one set of arguments. Anything else selected below is left to its resolver.
 */
export const catalogPrefetch: Prefetches = {
  'Artist.catalogs': {
    sql(ctx, field, artistId) {
      if (!ctx.viewer || !field.type) return null;
      const below = catalogFields(field);
      const songs = onlyField(below, 'songs');
      const accounts = below.some((f) => f.node.name.value === 'accounts');
      let page: { offset: number; limit: number; filter: string | null } | undefined;
      if (songs) {
        const asked = songsRequest(songs.args);
        // An invalid page is answered by the field's own resolver (its error names the argument);
        // a page after a cursor too (a cursor is checked against its catalog, known only per row).
        if (!asked || asked.request.after !== null) return null;
        const { request, filter } = asked;
        page = { offset: (request.page - 1) * request.limit, limit: request.limit, filter };
      }
      return new CatalogRepository(ctx.db).artistCatalogsJson(ctx.viewer, artistId, { accounts, songs: page });
    },

    prime(ctx, field, artistId, value) {
      const viewer = ctx.viewer;
      if (!viewer || !value) return;
      const ahead = value as CatalogsAhead;
      ctx.access.primeReach(viewer, artistId, ahead.reachable);
      const songsField = onlyField(catalogFields(field), 'songs');
      const songsArgs = songsField ? songsRequest(songsField.args) : null;
      const catalogs: Catalog[] = [];
      for (const { accounts, songs, ...row } of ahead.catalogs) {
        const catalog = { ...row, created_at: new Date(row.created_at), updated_at: new Date(row.updated_at) };
        catalogs.push(catalog);
        if (accounts) ctx.loaders.accountsByCatalog.prime(catalog.id, accounts);
        if (songs && songsArgs && songsArgs.request.after === null) {
          const { request, filter } = songsArgs;
          const offset = (request.page - 1) * request.limit;
          ctx.loaders.catalogSongsPage.prime(
            { id: catalog.id, position: { offset }, limit: request.limit, filter },
            { rows: songsOf(songs), total: songs.total, skipped: songs.skipped },
          );
        }
      }
      ctx.loaders.reachableCatalogsByArtist.prime({ viewer, id: artistId }, catalogs);
    },
  },
};
