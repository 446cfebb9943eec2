import type { EntityManager } from '@mikro-orm/postgresql';
import type { Orm } from '../src/db/orm';
import { DEMO } from '../src/db/seeders/demo.data';

export interface Scenario {
  name: string;
  method?: 'GET' | 'POST' | 'PUT';
  path: string;
  body?: unknown;
}

const gql = (query: string) => ({ query });

/** What the benchmark drives, as Nora (member of Northwind Records). */
export const scenarios: Scenario[] = [
  { name: 'GET /api/accounts/me', path: '/api/accounts/me' },
  { name: 'GraphQL me', method: 'POST', path: '/graphql', body: gql('{ me { account { id name organizations { name } } } }') },
  { name: 'GET /api/agents/templates (≈200 visible)', path: '/api/agents/templates' },
  { name: `GET /api/sessions/{id}/chats`, path: `/api/sessions/${DEMO.sessionNora}/chats` },
];

/** Adds bulk rows (idempotent) so list scenarios measure real page sizes. */
export async function prepareVolume(orm: Orm): Promise<void> {
  const em = orm.em.fork() as EntityManager;
  const conn = em.getConnection();
  await conn.execute(
    `insert into agent_templates (id, created_at, updated_at, creator_id, title, description, prompt, tags, is_private, favorites_count)
     select ('00000000-0000-4000-a000-' || lpad(g::text, 12, '0'))::uuid, now(), now(), ?, 'Bench template ' || g,
            'Bench description', 'Bench prompt', '{bench}', false, 0
       from generate_series(1, 200) g
     on conflict do nothing`,
    [DEMO.ada],
  );
}
