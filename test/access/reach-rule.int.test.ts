import type { EntityManager } from '@mikro-orm/postgresql';
import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { AccessPolicy, reachCondition } from '../../src/auth/access';
import { pgArray } from '../../src/db/sql';
import { dbOf } from '../../src/db/request-db';
import { AccountKind, Viewer } from '../../src/auth/viewer';
import { createTestApp, TestApp } from '../app';

/**
 * The reach rule has one definition (reachRule in src/auth/access.repository.ts): the condition
 * repositories compose (reachCondition), the batched subset (accessibleAccountIds), the single
 * check (canAccessAccount, and its batched form) answer the same set of accounts for any graph of
 * memberships and rosters, and that set is the rule as the contract states it.
 */
describe('the reach rule (real PostgreSQL, random membership graphs)', () => {
  let t: TestApp;
  let em: EntityManager;
  beforeAll(async () => {
    t = await createTestApp();
    em = t.orm.em.fork() as EntityManager;
  });
  afterAll(async () => {
    await t.close();
  });

  const KINDS = [AccountKind.person, AccountKind.artist, AccountKind.organization] as const;
  /** Accounts (by kind), memberships (organization, member) and roster entries (owner, artist), as indexes into the accounts. */
  const graph = fc
    .array(fc.constantFrom(...KINDS), { minLength: 2, maxLength: 9 })
    .chain((kinds) => {
      const index = fc.nat({ max: kinds.length - 1 });
      return fc.record({
        kinds: fc.constant(kinds),
        memberships: fc.uniqueArray(fc.tuple(index, index), { maxLength: 12, selector: ([a, b]) => `${a}:${b}` }),
        roster: fc.uniqueArray(fc.tuple(index, index), { maxLength: 12, selector: ([a, b]) => `${a}:${b}` }),
        viewer: index,
      });
    })
    .map(({ kinds, memberships, roster, viewer }) => ({
      kinds,
      // Organizations have persons and artists as members; rosters list artists.
      memberships: memberships.filter(([org, member]) => kinds[org] === AccountKind.organization && kinds[member] !== AccountKind.organization),
      roster: roster.filter(([owner, artist]) => owner !== artist && kinds[artist] === AccountKind.artist),
      viewer,
    }));

  it('reachCondition, accessibleAccountIds and canAccessAccount answer the same accounts: the rule', async () => {
    await fc.assert(
      fc.asyncProperty(graph, async ({ kinds, memberships, roster, viewer: v }) => {
        const ids = kinds.map(() => randomUUID());
        const execute = (sql: string, bindings: unknown[] = []) => em.getConnection().execute(sql, bindings);
        try {
          for (const [i, kind] of kinds.entries()) {
            await execute(`insert into accounts (id, created_at, updated_at, kind, name) values (?, now(), now(), ?, ?)`, [ids[i], kind, `reach ${i}`]);
          }
          for (const [org, member] of memberships) {
            await execute(`insert into memberships (id, created_at, updated_at, organization_id, member_id) values (gen_random_uuid(), now(), now(), ?, ?)`, [ids[org], ids[member]]);
          }
          for (const [owner, artist] of roster) {
            await execute(`insert into roster_entries (id, created_at, updated_at, owner_id, artist_id) values (gen_random_uuid(), now(), now(), ?, ?)`, [ids[owner], ids[artist]]);
          }
          const organizationIds = memberships.filter(([, member]) => member === v).map(([org]) => ids[org]);
          const viewer: Viewer = { accountId: ids[v], kind: kinds[v], name: 'viewer', email: null, organizationIds, isAdmin: false, via: 'api_key' };

          // The rule as the contract states it, over the fixture.
          const scope = new Set([v, ...memberships.filter(([, member]) => member === v).map(([org]) => org)]);
          const expected = new Set<string>();
          for (const s of scope) expected.add(ids[s]);
          for (const [org, member] of memberships) if (scope.has(org)) expected.add(ids[member]);
          for (const [owner, artist] of roster) if (scope.has(owner)) expected.add(ids[artist]);

          const reach = reachCondition(viewer, 'a.id');
          const composed = await em.getConnection().execute<{ id: string }[]>(
            `select a.id from accounts a where a.id = any(?::uuid[]) and ${reach.sql}`,
            [pgArray(ids), ...reach.bindings],
          );
          const policy = new AccessPolicy(dbOf(em));
          const subset = await new AccessPolicy(dbOf(em)).accessibleAccountIds(viewer, ids);
          const single = await Promise.all(ids.map((id) => policy.canAccessAccount(viewer, id)));
          const batched = await Promise.all(ids.map((id) => new AccessPolicy(dbOf(em)).canAccessAccountBatched(viewer, id)));

          const sorted = (set: Iterable<string>) => [...set].sort();
          expect(sorted(composed.map((r) => r.id))).toEqual(sorted(expected));
          expect(sorted(subset)).toEqual(sorted(expected));
          expect(sorted(ids.filter((_, i) => single[i]))).toEqual(sorted(expected));
          expect(sorted(ids.filter((_, i) => batched[i]))).toEqual(sorted(expected));
        } finally {
          await execute(`delete from memberships where organization_id = any(?::uuid[]) or member_id = any(?::uuid[])`, [pgArray(ids), pgArray(ids)]);
          await execute(`delete from roster_entries where owner_id = any(?::uuid[]) or artist_id = any(?::uuid[])`, [pgArray(ids), pgArray(ids)]);
          await execute(`delete from accounts where id = any(?::uuid[])`, [pgArray(ids)]);
        }
      }),
      { numRuns: 40 },
    );
  });

  it('an admin reaches every account, and a malformed id reaches nothing', async () => {
    const admin: Viewer = { accountId: randomUUID(), kind: AccountKind.person, name: 'admin', email: null, organizationIds: [], isAdmin: true, via: 'api_key' };
    const policy = new AccessPolicy(dbOf(em));
    const someone = randomUUID();
    expect(reachCondition(admin, 'a.id').sql).toBe('true');
    expect([...(await policy.accessibleAccountIds(admin, [someone, 'not-a-uuid']))]).toEqual([someone]);
    expect(await policy.canAccessAccount(admin, 'not-a-uuid')).toBe(false);
  });
});
