import type { EntityManager } from '@mikro-orm/postgresql';
import DataLoader from 'dataloader';
import { pgArray } from '../../db/sql';
import { query } from '../../db/sql';
import { batchPages, Page, PageKey, pageKeyOf } from '../../db/pages';
import type { SocialProfile } from './artist.types';

interface SocialRow {
  owner: string;
  total: string;
  id: string | null;
  social_id: string;
  username: string;
  profile_url: string;
  avatar: string | null;
  bio: string | null;
  follower_count: number | null;
  following_count: number | null;
  region: string | null;
  updated_at: Date;
}

export function createArtistLoaders(em: EntityManager) {
  return {
    /** A page of an artist's socials, oldest link first; batched over artists. */
    socialsPage: new DataLoader<PageKey, Page<SocialProfile>, string>(
      (keys) =>
        batchPages(keys, async (ids, offset, limit) => {
          const rows = await query<SocialRow>(em, 
            `with f as (
               select l.account_id, l.id, l.social_id,
                      row_number() over (partition by l.account_id order by l.created_at, l.id) as rn,
                      count(*) over (partition by l.account_id) as total
                 from account_socials l where l.account_id = any(?::uuid[]))
             select t.account_id as owner, t.total, p.id, p.social_id, s.username, s.profile_url, s.avatar, s.bio,
                    s.follower_count, s.following_count, s.region, s.updated_at
               from (select distinct account_id, total from f) t
               left join f p on p.account_id = t.account_id and p.rn > ? and p.rn <= ?
               left join socials s on s.id = p.social_id
              order by t.account_id, p.rn`,
            [pgArray(ids), offset, offset + limit],
          );
          return rows.map(({ owner, total, ...social }) => ({ owner, total, item: social.id ? (social as SocialProfile) : null }));
        }),
      { cacheKeyFn: pageKeyOf },
    ),
  };
}
