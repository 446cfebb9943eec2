/**
 * ┌──────────────────────────────────────────────────────────────────────────────────────────────┐
 * │ THE YARDSTICK — benchmark code, not product code. Nothing in src/ uses it; do not copy it    │
 * │ into the service. It is the hand-written lower bound issue #14 measures the service against. │
 * └──────────────────────────────────────────────────────────────────────────────────────────────┘
 *
 * GET /api/catalogs/songs?catalog_id=&page=&limit= on node:http + a pg Pool, answered by ONE SQL
 * statement that
 *  - looks the API key up by its SHA-256 hash (the service's scheme, src/auth/api-keys.ts), not
 *    revoked, and records last_used_at at most once a minute (src/auth/authenticate.ts);
 *  - builds the viewer's scope (the account and its organizations) and admin flag;
 *  - checks the catalog exists (404) and is reachable the way AccessPolicy.catalogReach does
 *    (src/auth/access.ts: an account linked to the catalog is in the scope, a member of a scope
 *    organization, or an artist on a scope roster; admins reach everything) (403);
 *  - builds the page (by ISRC) with each entry's credited artists (by credit time, name, id) and
 *    the pagination object, as the JSON text the REST contract answers.
 * The JSON is assembled with row_to_json/string_agg rather than json_agg so PostgreSQL emits it
 * compact, byte for byte what JSON.stringify gives (json_agg separates elements with ", \n ").
 * No rate limiting: the yardstick is the statement the issue describes, nothing more.
 */
import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Pool } from 'pg';
import { serveUntilParentLeaves } from './child';

const ADMIN_ORG_ID = process.env.ADMIN_ORG_ID ?? '00000000-0000-4000-8000-000000000001';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const SONGS_PAGE = `
with viewer as (
  select k.id as key_id, a.id as account_id,
         array_prepend(a.id, array_remove(array_agg(m.organization_id), null)) as scope,
         (a.id = $6::uuid or coalesce(bool_or(m.organization_id = $6::uuid), false)) as is_admin
    from api_keys k
    join accounts a on a.id = k.account_id
    left join memberships m on m.member_id = a.id
   where k.hash = $1 and k.revoked_at is null
   group by k.id, a.id
),
touched as (
  update api_keys set last_used_at = now()
   where id = (select key_id from viewer)
     and (last_used_at is null or last_used_at < now() - interval '60 seconds')
  returning 1
),
catalog as (
  select c.id,
         v.is_admin or exists (
           select 1 from account_catalogs ac
            where ac.catalog_id = c.id
              and (ac.account_id = any(v.scope)
                   or exists (select 1 from memberships m where m.organization_id = any(v.scope) and m.member_id = ac.account_id)
                   or exists (select 1 from roster_entries r where r.owner_id = any(v.scope) and r.artist_id = ac.account_id))) as reachable
    from viewer v join catalogs c on c.id = $2::uuid
),
page as (
  select cs.id, cs.catalog_id, cs.isrc, cs.name, cs.album, cs.lyrics, cs.updated_at
    from catalog_songs cs
   where cs.catalog_id = $2::uuid and (select reachable from catalog)
   order by cs.isrc
   limit $3 offset $4
),
total as (
  select count(*)::int as n from catalog_songs cs where cs.catalog_id = $2::uuid and (select reachable from catalog)
)
select exists (select 1 from viewer) as authenticated,
       exists (select 1 from catalog) as found,
       coalesce((select reachable from catalog), false) as reachable,
       (select count(*) from touched) as touched,
       case when (select reachable from catalog) then
         '{"status":"success","songs":['
         || coalesce((
              select string_agg(row_to_json(s)::text, ',' order by s.isrc)
                from (select p.isrc, p.name, p.album, p.lyrics,
                             to_char(p.updated_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as updated_at,
                             p.catalog_id,
                             (select ('[' || coalesce(string_agg(row_to_json(c)::text, ',' order by csa.created_at, a.name, a.id), '') || ']')::json
                                from catalog_song_artists csa
                                join accounts a on a.id = csa.artist_id
                                cross join lateral (select a.id, a.name, floor(extract(epoch from csa.created_at))::int as "timestamp") c
                               where csa.catalog_song_id = p.id) as artists
                        from page p) s), '')
         || '],"pagination":'
         || (select row_to_json(g)::text from (select t.n as total_count, $5::int as page, $3::int as "limit", ceil(t.n::numeric / $3::int)::int as total_pages) g)
         || '}'
       end as body
  from total t`;

function send(res: ServerResponse, status: number, body: string): void {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body) });
  res.end(body);
}

const error = (res: ServerResponse, status: number, code: string, message: string) =>
  send(res, status, JSON.stringify({ status: 'error', error: message, code }));

function intParam(value: string | null, fallback: number, min: number, max: number): number | undefined {
  if (value === null) return fallback;
  if (!/^\d+$/.test(value)) return undefined;
  const n = Number(value);
  return n >= min && n <= max ? n : undefined;
}

async function main(): Promise<void> {
  const pool = new Pool({ connectionString: process.env.DATABASE_URL, max: 10, idleTimeoutMillis: 0 });
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    if (req.method !== 'GET' || url.pathname !== '/api/catalogs/songs') return error(res, 404, 'NOT_FOUND', `No route ${req.method} ${url.pathname}`);
    const raw = (Array.isArray(req.headers['x-api-key']) ? req.headers['x-api-key'][0] : req.headers['x-api-key'])?.trim();
    if (!raw) return error(res, 401, 'UNAUTHENTICATED', 'Missing credentials: send x-api-key');
    const catalogId = url.searchParams.get('catalog_id');
    const page = intParam(url.searchParams.get('page'), 1, 1, 1_000_000);
    const limit = intParam(url.searchParams.get('limit'), 20, 1, 100);
    if (!catalogId || !UUID.test(catalogId) || page === undefined || limit === undefined) {
      return error(res, 400, 'BAD_USER_INPUT', 'Invalid input: catalog_id must be a UUID, page ≥ 1, limit 1 to 100');
    }
    const hash = createHash('sha256').update(raw, 'utf8').digest('hex');
    pool
      // A named statement: parsed once per connection, then only bound and executed (still one Execute per request).
      .query<{ authenticated: boolean; found: boolean; reachable: boolean; body: string | null }>({
        name: 'bench-songs-page',
        text: SONGS_PAGE,
        values: [hash, catalogId, limit, (page - 1) * limit, page, ADMIN_ORG_ID],
      })
      .then(({ rows: [row] }) => {
        if (!row.authenticated) return error(res, 401, 'UNAUTHENTICATED', 'Invalid or revoked API key');
        if (!row.found) return error(res, 404, 'NOT_FOUND', `Catalog ${catalogId} not found`);
        if (!row.reachable) return error(res, 403, 'FORBIDDEN', `Insufficient access to catalog ${catalogId}`);
        send(res, 200, row.body!);
      })
      .catch((e: unknown) => error(res, 500, 'INTERNAL', e instanceof Error ? e.message : 'error'));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  serveUntilParentLeaves((server.address() as AddressInfo).port, async () => {
    server.close();
    await pool.end();
  });
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
