import DataLoader from 'dataloader';
import type { Account } from './account.entity';
import { AccountRepository } from './account.repository';
import type { OrganizationType } from './account.types';
import type { Db } from '../../db/request-db';

export type AccountLoaders = ReturnType<typeof createAccountLoaders>;

export function createAccountLoaders(db: Db) {
  const repo = new AccountRepository(db);
  return {
    accountById: new DataLoader<string, Account | null>(async (ids) => {
      const rows = await repo.accountsByIds(ids);
      const byId = new Map(rows.map((a) => [a.id, a]));
      return ids.map((id) => byId.get(id) ?? null);
    }),
    /** Organizations an account is a member of, by name, by member id. */
    organizationsByMemberId: new DataLoader<string, OrganizationType[]>(async (ids) => {
      const rows = await repo.organizationsOfMembers(ids);
      return ids.map((id) => rows.filter((r) => r.member_id === id).map(({ id: orgId, name, created_at }) => ({ id: orgId, name, created_at })));
    }),
  };
}

// The request's loaders (src/request/context.ts) include this module's: the context names no module.
declare module '../../request/context' {
  interface Loaders extends ReturnType<typeof createAccountLoaders> {}
}
