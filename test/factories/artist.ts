import type { EntityManager } from '@mikro-orm/postgresql';
import { randomUUID } from 'node:crypto';
import { Account, AccountKind } from '../../src/modules/account/account.entity';
import { AccountSocial, RosterEntry, Social } from '../../src/modules/artist/artist.entity';
import type { Orm } from '../../src/db/orm';

/** An artist account on `rosterOf`'s roster (a person or an organization), as POST /api/artists makes one. */
export async function createArtist(orm: Orm, options: { rosterOf: string; name?: string }): Promise<Account> {
  const em = orm.em.fork() as EntityManager;
  const artist = em.create(Account, { kind: AccountKind.artist, name: options.name ?? `Artist ${randomUUID().slice(0, 8)}` });
  em.create(RosterEntry, { owner: em.getReference(Account, options.rosterOf), artist });
  await em.flush();
  return artist;
}

/** A social profile linked to the artist. */
export async function addSocial(
  orm: Orm,
  artistId: string,
  profile: { profileUrl?: string; username?: string; followerCount?: number | null; region?: string | null } = {},
): Promise<Social> {
  const em = orm.em.fork() as EntityManager;
  const suffix = randomUUID().slice(0, 8);
  const social = em.create(Social, {
    account: em.getReference(Account, artistId),
    profileUrl: profile.profileUrl ?? `https://social.example.test/${suffix}`,
    username: profile.username ?? `user_${suffix}`,
    followerCount: profile.followerCount ?? null,
    region: profile.region ?? null,
  });
  em.create(AccountSocial, { account: em.getReference(Account, artistId), social });
  await em.flush();
  return social;
}
