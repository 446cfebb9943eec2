import type { EntityManager } from '@mikro-orm/postgresql';
import { randomUUID } from 'node:crypto';
import { Account } from '../../src/modules/account/account.entity';
import { AccountCatalog, Catalog, CatalogSong, CatalogSongArtist } from '../../src/modules/catalog/catalog.entity';
import type { Orm } from '../../src/db/orm';

/** A catalog linked to each of `linkedTo` (accounts), as POST /api/catalogs makes one. */
export async function createCatalog(orm: Orm, options: { linkedTo: string[]; name?: string }): Promise<Catalog> {
  const em = orm.em.fork() as EntityManager;
  const catalog = em.create(Catalog, { name: options.name ?? `Catalog ${randomUUID().slice(0, 8)}` });
  for (const accountId of options.linkedTo) em.create(AccountCatalog, { account: em.getReference(Account, accountId), catalog });
  await em.flush();
  return catalog;
}

let isrcSerial = 0;

/** A fresh, valid ISRC (country code, registrant, year, serial), unique within the test process. */
export function newIsrc(): string {
  isrcSerial += 1;
  return `QZ${randomUUID().slice(0, 3).toUpperCase()}26${String(isrcSerial).padStart(5, '0')}`;
}

/** The catalog's entry for an ISRC, crediting the given artist accounts in order. */
export async function addSong(
  orm: Orm,
  catalogId: string,
  song: { isrc?: string; name?: string; album?: string | null; lyrics?: string | null; artistIds?: string[] } = {},
): Promise<CatalogSong> {
  const em = orm.em.fork() as EntityManager;
  const entry = em.create(CatalogSong, {
    catalog: em.getReference(Catalog, catalogId),
    isrc: song.isrc ?? newIsrc(),
    name: song.name ?? `Song ${randomUUID().slice(0, 8)}`,
    album: song.album ?? null,
    lyrics: song.lyrics ?? null,
  });
  for (const artistId of song.artistIds ?? []) em.create(CatalogSongArtist, { catalogSong: entry, artist: em.getReference(Account, artistId) });
  await em.flush();
  return entry;
}
