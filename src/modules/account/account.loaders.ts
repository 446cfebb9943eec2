import type { EntityManager } from '@mikro-orm/postgresql';
import DataLoader from 'dataloader';
import { pgArray } from '../../db/sql';
import { Account } from './account.entity';

export function createAccountLoaders(em: EntityManager) {
  return {
    accountById: new DataLoader<string, Account | null>(async (ids) => {
      const rows = await em.find(Account, { id: { $in: [...ids] } });
      const byId = new Map(rows.map((a) => [a.id, a]));
      return ids.map((id) => byId.get(id) ?? null);
    }),
    /** Organizations (id, name) an account is a member of, by member id. */
    organizationsByMemberId: new DataLoader<string, { id: string; name: string }[]>(async (ids) => {
      const rows = await em.getConnection().execute<{ member_id: string; id: string; name: string }[]>(
        `select m.member_id, o.id, o.name from memberships m join accounts o on o.id = m.organization_id
          where m.member_id = any(?::uuid[]) order by o.name, o.id`,
        [pgArray(ids)],
      );
      return ids.map((id) => rows.filter((r) => r.member_id === id).map(({ id: orgId, name }) => ({ id: orgId, name })));
    }),
  };
}
