import { pageRequest } from '../../common/paging';
import { graphPageInput, withoutNulls } from '../../common/validation';
import type { Prefetches } from '../../graphql/prefetch';
import { ArtistRepository, socialsOf, SocialsPageJson } from './artist.repository';

interface SocialsAhead {
  reachable: boolean;
  /** Null when the artist is out of reach. */
  page: SocialsPageJson | null;
}

/** The offset page Artist.socials asks for with these arguments; null when they are invalid or ask for a page after a cursor. */
function offsetPage(args: Record<string, unknown>): { offset: number; limit: number } | null {
  const parsed = graphPageInput.safeParse(withoutNulls(args));
  if (!parsed.success) return null;
  try {
    const request = pageRequest(parsed.data, args);
    return request.after === null ? { offset: (request.page - 1) * request.limit, limit: request.limit } : null;
  } catch {
    return null;
  }
}

/**
 * Artist.socials read ahead in the statement of the artists' list (a roster): one page, when asked
 * with one set of arguments. An invalid page is answered by the field's own resolver (its error
 * names the argument), and so is a page after a cursor (checked against its artist, known per row).
 */
export const artistPrefetch: Prefetches = {
  'Artist.socials': {
    sql(ctx, field, artistId) {
      const page = offsetPage(field.args);
      if (!ctx.viewer || !page) return null;
      return new ArtistRepository(ctx.db).socialsJson(ctx.viewer, artistId, page.offset, page.limit);
    },

    prime(ctx, field, artistId, value) {
      const page = offsetPage(field.args);
      if (!ctx.viewer || !page || !value) return;
      const ahead = value as SocialsAhead;
      ctx.access.primeReach(ctx.viewer, artistId, ahead.reachable);
      if (!ahead.page) return;
      const found = { rows: socialsOf(ahead.page), total: ahead.page.total, skipped: ahead.page.skipped };
      ctx.loaders.socialsPage.prime({ id: artistId, position: { offset: page.offset }, limit: page.limit }, found);
    },
  },
};
