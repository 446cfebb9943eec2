import DataLoader from 'dataloader';
import { batchPages, Page, PageKey, pageKeyOf } from '../../db/pages';
import { ArtistRepository } from './artist.repository';
import type { SocialProfile } from './artist.types';
import type { Db } from '../../db/request-db';

export function createArtistLoaders(db: Db) {
  const repo = new ArtistRepository(db);
  return {
    /** A page of an artist's socials, oldest link first; batched over artists. */
    socialsPage: new DataLoader<PageKey, Page<SocialProfile>, string>(
      (keys) => batchPages(keys, (ids, position, limit) => repo.socialsPages(ids, position, limit)),
      { cacheKeyFn: pageKeyOf },
    ),
  };
}

// The request's loaders (src/request/context.ts) include this module's: the context names no module.
declare module '../../request/context' {
  interface Loaders extends ReturnType<typeof createArtistLoaders> {}
}
