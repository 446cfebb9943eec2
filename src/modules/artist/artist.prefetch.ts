import { graphPageInput, withoutNulls } from '../../common/validation';
import type { Prefetches } from '../../graphql/prefetch';
import { ArtistRepository } from './artist.repository';
import type { SocialProfile } from './artist.types';

interface SocialsAhead {
  reachable: boolean;
  total: number;
  items: (Omit<SocialProfile, 'updated_at'> & { updated_at: string })[];
}

/** Artist.socials read ahead in the statement of the artists' list (a roster): one page, when asked with one set of arguments. */
export const artistPrefetch: Prefetches = {
  'Artist.socials': {
    sql(ctx, field, artistId) {
      const parsed = graphPageInput.safeParse(withoutNulls(field.args));
      // An invalid page is answered by the field's own resolver (its error names the argument).
      if (!ctx.viewer || !parsed.success) return null;
      const { page, limit } = parsed.data;
      return new ArtistRepository(ctx.em).socialsJson(ctx.viewer, artistId, (page - 1) * limit, limit);
    },

    prime(ctx, field, artistId, value) {
      const parsed = graphPageInput.safeParse(withoutNulls(field.args));
      if (!ctx.viewer || !parsed.success || !value) return;
      const ahead = value as SocialsAhead;
      ctx.access.primeReach(ctx.viewer, artistId, ahead.reachable);
      const rows = ahead.items.map((social) => ({ ...social, updated_at: new Date(social.updated_at) }));
      ctx.loaders.socialsPage.prime({ id: artistId, page: parsed.data.page, limit: parsed.data.limit }, { rows, total: Number(ahead.total) });
    },
  },
};
