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
export const BENCH_CATALOG = '00000000-0000-4000-a100-000000000001';
/** A render run of Nora's, for the status read (GET /api/tasks/runs?runId=). */
export const BENCH_RUN = '00000000-0000-4000-a400-000000000001';

/** What the throughput mode (`npm run bench -- --throughput`) drives, as Nora (member of Northwind Records). */
export const scenarios: Scenario[] = [
  { name: 'GET /api/accounts/me', path: '/api/accounts/me' },
  { name: 'GraphQL me', method: 'POST', path: '/graphql', body: gql('{ me { id name organizations { name } } }') },
  { name: 'GET /api/agents/templates (≈200 visible)', path: '/api/agents/templates' },
  { name: `GET /api/sessions/{id}/chats`, path: `/api/sessions/${DEMO.sessionNora}/chats` },
  { name: 'GET /api/catalogs/songs (page of 100)', path: `/api/catalogs/songs?catalog_id=${BENCH_CATALOG}&limit=100` },
  { name: 'GET /api/artists/{id}/socials', path: `/api/artists/${DEMO.luna}/socials` },
  {
    name: 'GraphQL roster → catalogs → 50 songs → artists',
    method: 'POST',
    path: '/graphql',
    // Limits that hold the whole demo roster: without them the lists weigh their bounds (issue 30) and the cost is refused.
    body: gql('{ artists(limit: 5) { items { name catalogs(limit: 3) { items { name songs(limit: 50) { items { isrc name artists { name } } } } } } } }'),
  },
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
  // A 150-song catalog of Northwind's, each song credited to Luna Waves and Kai Rivers.
  await conn.execute(`insert into catalogs (id, created_at, updated_at, name) values (?, now(), now(), 'Bench catalog') on conflict do nothing`, [BENCH_CATALOG]);
  await conn.execute(
    `insert into account_catalogs (id, created_at, updated_at, account_id, catalog_id)
     values ('00000000-0000-4000-a100-000000000002', now(), now(), ?, ?) on conflict do nothing`,
    [DEMO.northwind, BENCH_CATALOG],
  );
  await conn.execute(
    `insert into catalog_songs (id, created_at, updated_at, catalog_id, isrc, name, album, lyrics)
     select ('00000000-0000-4000-a200-' || lpad(g::text, 12, '0'))::uuid, now(), now(), ?, 'QZBEN' || lpad(g::text, 7, '0'),
            'Bench song ' || g, 'Bench album', null
       from generate_series(1, 150) g on conflict do nothing`,
    [BENCH_CATALOG],
  );
  for (const [offset, artist] of [[0, DEMO.luna], [1000, DEMO.kai]] as const) {
    await conn.execute(
      `insert into catalog_song_artists (id, created_at, updated_at, catalog_song_id, artist_id)
       select ('00000000-0000-4000-a300-' || lpad((g + ?)::text, 12, '0'))::uuid, now(), now(), ('00000000-0000-4000-a200-' || lpad(g::text, 12, '0'))::uuid, ?
         from generate_series(1, 150) g on conflict do nothing`,
      [offset, artist],
    );
  }
  // Steady state, as autovacuum leaves a table some time after a write: the credits' triggers
  // rewrote each song row, and the visibility map and statistics should not depend on when it ran.
  await conn.execute('vacuum (analyze) catalog_songs, catalog_song_artists');
  // A run being rendered, as a client polling for its status sees it.
  await conn.execute(
    `insert into render_runs (id, created_at, updated_at, account_id, task_identifier, status, payload, progress, attempts, started_at)
     values (?, now(), now(), ?, 'title-card', 'EXECUTING', ?::jsonb, 0.5, 1, now()) on conflict do nothing`,
    [BENCH_RUN, DEMO.nora, JSON.stringify({ compositionId: 'title-card', inputProps: { title: 'Bench' }, width: 720, height: 1280, fps: 30, durationInFrames: 240, codec: 'h264' })],
  );
}
