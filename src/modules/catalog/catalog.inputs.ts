import { z } from 'zod';
import { LIST_BOUNDS } from '../../common/bounds';
import { PageRequest, pageRequest } from '../../common/paging';
import { graphPageInput, limitArg, pageArg, uuid, validate, withoutNulls } from '../../common/validation';
import { artistName } from '../artist';

/**
 * ISRC (decisions §5): 12 characters `^[A-Z]{2}[A-Z0-9]{3}[0-9]{7}$` after upper-casing and
 * removing dashes. The input pattern says the same of the raw value; `normalizeIsrc` then stores
 * the canonical form.
 */
export const ISRC_PATTERN = /^-*(?:[A-Za-z]-*){2}(?:[A-Za-z0-9]-*){3}(?:[0-9]-*){7}$/;
export const CANONICAL_ISRC = /^[A-Z]{2}[A-Z0-9]{3}[0-9]{7}$/;
export const normalizeIsrc = (raw: string): string => raw.toUpperCase().replace(/-/g, '');

export const isrc = z
  .string()
  .max(40, { message: 'must be an ISRC: 12 characters, 2 letters, 3 letters or digits, 7 digits' })
  .regex(ISRC_PATTERN, { message: 'must be an ISRC: 12 characters, 2 letters, 3 letters or digits, 7 digits' })
  .describe('ISRC, e.g. GBNWR2400001 (case and dashes are ignored)');

export const catalogName = z
  .string()
  .trim()
  .min(1, { message: 'must not be empty' })
  .max(200, { message: 'must be at most 200 characters' })
  .describe('Catalog name');

const text = (max: number) => z.string().trim().min(1, { message: 'must not be empty' }).max(max, { message: `must be at most ${max} characters` });

export const catalogSongsInput = z.object({
  catalog_id: uuid().describe('Catalog to query'),
  artistName: artistName.optional().describe('Keeps only songs credited to an artist with this name (case-insensitive)'),
  page: pageArg().describe('Page number, from 1'),
  limit: limitArg().describe('Songs per page, 1 to 100'),
});

export const catalogsInput = z.object({
  account_id: uuid().optional().describe('Catalogs of this account (it must be reachable) instead of the caller'),
  page: pageArg().describe('Page number, from 1'),
  limit: limitArg(LIST_BOUNDS.catalogsPerAccount, LIST_BOUNDS.catalogsPerAccount).describe(
    `Catalogs per page, 1 to ${LIST_BOUNDS.catalogsPerAccount} (default ${LIST_BOUNDS.catalogsPerAccount}: all of them, as an account holds at most that many)`,
  ),
});

export const addCatalogInput = z
  .object({
    name: catalogName.optional().describe('Create a catalog with this name'),
    catalog_id: uuid().optional().describe('Link this existing catalog: the caller or one of its organizations must hold it in its own right (a link needing a membership ends with it)'),
    account_id: uuid().optional().describe('Account to create or link the catalog for (default: the caller); a link goes only to the caller or an organization it is a member of'),
  })
  .refine((v) => (v.name === undefined) !== (v.catalog_id === undefined), {
    message: 'give either name (create) or catalog_id (link), not both',
    path: ['name'],
  });

export const songItem = z.object({
  catalog_id: uuid().describe('Catalog whose entry for the ISRC is written (the caller must reach it)'),
  isrc,
  name: text(500).nullish().describe('Song name, 1-500 characters; required when the catalog has no entry for the ISRC yet'),
  album: text(500).nullish().describe('Album name, 1-500 characters'),
  lyrics: z.string().max(100_000, { message: 'must be at most 100000 characters' }).nullish().describe('Lyrics, at most 100000 characters'),
  artists: z.array(artistName).max(LIST_BOUNDS.creditsPerSong, { message: `must have at most ${LIST_BOUNDS.creditsPerSong} names` }).nullish().describe('Credited artist names; unknown names become artist accounts'),
});

/** Songs one catalog-songs write may post (and answers). */
export const MAX_SONGS_PER_WRITE = 500;

export const addSongsInput = z.object({
  songs: z.array(songItem).min(1, { message: 'must not be empty' }).max(MAX_SONGS_PER_WRITE, { message: `must have at most ${MAX_SONGS_PER_WRITE} songs` }),
});

export const songRef = z.object({ catalog_id: uuid().describe('Catalog to remove the song from'), isrc });

export const removeSongsInput = z.object({
  songs: z.array(songRef).min(1, { message: 'must not be empty' }).max(500, { message: 'must have at most 500 songs' }),
});

export const catalogLink = z.object({ catalog_id: uuid().describe('The catalog to unlink'), account_id: uuid().describe('The account to unlink it from') });

export const removeCatalogsInput = z.object({
  catalogs: z.array(catalogLink).min(1, { message: 'must not be empty' }).max(500, { message: 'must have at most 500 pairs' }),
});

export const catalogIdInput = z.object({ id: uuid() });
export const isrcInput = z.object({ isrc });

/** Artist.catalogs and Song.catalogs: the first `limit` catalogs by name. */
export const catalogsLimitInput = z.object({ page: pageArg(), limit: limitArg(LIST_BOUNDS.catalogsPerList, 20).describe(`Catalogs, 1 to ${LIST_BOUNDS.catalogsPerList}`) });

/** Catalog.songs in the graph: a page, optionally only the songs credited to an artist with this name. */
export const catalogSongsFieldInput = graphPageInput.extend({ artistName: catalogSongsInput.shape.artistName });

/** Catalog.songs' arguments as given (GraphQL nullable arguments: null is absent). */
export interface CatalogSongsFieldArgs {
  page?: number | null;
  limit?: number | null;
  first?: number | null;
  after?: string | null;
  artistName?: string | null;
}

/** The page Catalog.songs asks for, and its filter (lower-cased); a bad argument is a 400 naming it. */
export function catalogSongsFieldRequest(args: CatalogSongsFieldArgs): { request: PageRequest; filter: string | null } {
  const { page, limit, artistName } = validate(catalogSongsFieldInput, withoutNulls({ page: args.page, limit: args.limit, artistName: args.artistName }));
  return { request: pageRequest({ page, limit }, args), filter: artistName ? artistName.toLowerCase() : null };
}

export type CatalogSongsInput = z.output<typeof catalogSongsInput>;
export type CatalogsInput = z.output<typeof catalogsInput>;
export type AddCatalogInput = z.output<typeof addCatalogInput>;
export type AddSongsInput = z.output<typeof addSongsInput>;
export type RemoveSongsInput = z.output<typeof removeSongsInput>;
export type RemoveCatalogsInput = z.output<typeof removeCatalogsInput>;
export type CatalogSongsFieldInput = z.output<typeof catalogSongsFieldInput>;
export type GraphPageInput = z.output<typeof graphPageInput>;
