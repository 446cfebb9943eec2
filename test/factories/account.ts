import type { EntityManager } from '@mikro-orm/postgresql';
import { randomUUID } from 'node:crypto';
import { ApiKey } from '../../src/auth/api-key.entity';
import { apiKeyHint, generateApiKey, hashApiKey } from '../../src/auth/api-keys';
import { Account, AccountKind, Membership } from '../../src/modules/account/account.entity';
import type { Orm } from '../../src/db/orm';

export interface CreatedAccount {
  account: Account;
  /** x-api-key header of a fresh key for this account. */
  headers: { 'x-api-key': string };
}

/** A person (or other kind) with a fresh API key and a proven address; optionally a member of organizations. */
export async function createAccount(
  orm: Orm,
  options: { kind?: AccountKind; name?: string; email?: string | null; emailProven?: boolean; organizations?: string[] } = {},
): Promise<CreatedAccount> {
  const em = orm.em.fork() as EntityManager;
  const suffix = randomUUID().slice(0, 8);
  const account = em.create(Account, {
    kind: options.kind ?? AccountKind.person,
    name: options.name ?? `Test ${suffix}`,
    email: options.email === undefined ? `test-${suffix}@example.test` : options.email,
  });
  // As a mailed code or a verified identity leaves it, unless the test wants an agent+ signup's unproven address.
  if (account.email && options.emailProven !== false) account.emailVerifiedAt = new Date();
  for (const orgId of options.organizations ?? []) {
    em.create(Membership, { organization: em.getReference(Account, orgId), member: account });
  }
  const raw = generateApiKey('mas_');
  em.create(ApiKey, { account, name: 'test', hint: apiKeyHint(raw), hash: hashApiKey(raw) });
  await em.flush();
  return { account, headers: { 'x-api-key': raw } };
}

/** An organization with members; `id` fixes its id (e.g. the configured admin organization's). */
export async function createOrganization(orm: Orm, name = `Org ${randomUUID().slice(0, 8)}`, memberIds: string[] = [], id?: string): Promise<Account> {
  const em = orm.em.fork() as EntityManager;
  const org = em.create(Account, { kind: AccountKind.organization, name, ...(id ? { id } : {}) });
  for (const id of memberIds) em.create(Membership, { organization: org, member: em.getReference(Account, id) });
  await em.flush();
  return org;
}

/** Another API key for an existing account. */
export async function createApiKeyFor(orm: Orm, accountId: string, name = 'extra'): Promise<{ id: string; headers: { 'x-api-key': string } }> {
  const em = orm.em.fork() as EntityManager;
  const raw = generateApiKey('mas_');
  const key = em.create(ApiKey, { account: em.getReference(Account, accountId), name, hint: apiKeyHint(raw), hash: hashApiKey(raw) });
  await em.flush();
  return { id: key.id, headers: { 'x-api-key': raw } };
}

/** Makes `memberId` a member of the organization (no invitation: the factory writes the membership). */
export async function addMember(orm: Orm, organizationId: string, memberId: string): Promise<void> {
  const em = orm.em.fork() as EntityManager;
  em.create(Membership, { organization: em.getReference(Account, organizationId), member: em.getReference(Account, memberId) });
  await em.flush();
}
