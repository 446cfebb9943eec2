import { randomUUID } from 'node:crypto';
import { createTestApp, TestApp } from '../app';
import { createAccount } from '../factories';
import { bearer, JwtIssuer, startJwtIssuer } from '../jwt';
import type { GraphQLSchema } from 'graphql';
import { routeTable } from '../../src/http/rest/routes';
import type { RestRoute } from '../../src/http/rest/route';
import { restFields } from '../../src/http/rest/documents';
import { operationField, restFieldName } from '../../src/http/rest/inputs';
import { buildPlainSchema } from '../../src/graphql/schema';
import { operations, resolvers } from '../../src/modules';
import { router } from '../demo';
import { ownerOf, reaches, READS, rowsOf, scratchOf } from './graphql-reach';
import { AccessRequest, ACCOUNT_CASES, CaseName, CREDENTIAL_CASES, expectedStatus, loadCases, Situation } from './registry';
import { buildWorld, World } from './world';

/**
 * Every REST route × every access case (rules 1-2 and 5-8 of the contract) → the status the
 * registry expects. Cases live in test/access/<module>.cases.ts; see registry.ts for the format.
 */
const routes = routeTable(operations).map((route) => ({ route, key: `${route.method} /api${route.path}` }));
let schema: GraphQLSchema;
/** The query or body members a route takes (its operation's fields, and the keys it refuses with a message of their own). */
const takenBy = (route: RestRoute) =>
  new Set([...restFields(operationField(schema, route.operation)).fields.map((f) => restFieldName(route, f.name)), ...Object.keys(route.refusedFields ?? {}), ...Object.keys(route.requiredBodyFields ?? {})]);
const cases = loadCases();
const allCases: CaseName[] = [...CREDENTIAL_CASES, ...ACCOUNT_CASES];

describe('access matrix', () => {
  let t: TestApp;
  let idp: JwtIssuer;
  let world: World;
  let credentials: Record<CaseName, Record<string, string>>;
  const shared = new Map<string, Promise<unknown>>();

  beforeAll(async () => {
    schema = await buildPlainSchema({ resolvers });
    idp = await startJwtIssuer();
    // Generous limits: the matrix checks who may act, not how often (the limits have their own tests).
    t = await createTestApp({ env: { ...idp.env, SIGNUP_LIMIT_PER_IP_PER_HOUR: '10000', RENDER_MAX_ACTIVE_PER_ACCOUNT: '1000', WEBHOOK_MAX_ENDPOINTS_PER_ACCOUNT: '1000' } });
    world = await buildWorld(t);
    const email = world.alice.account.email!;
    const revoked = await createAccount(t.orm);
    await t.orm.em.getConnection().execute('update api_keys set revoked_at = now() where account_id = ?', [revoked.account.id]);
    const past = Math.floor(Date.now() / 1000) - 3600;
    const alice = world.alice.headers;
    credentials = {
      'no credentials': {},
      'malformed key': { 'x-api-key': 'not a key at all' },
      'revoked key': revoked.headers,
      'expired JWT': bearer(await idp.sign({ email }, { expiresIn: past })),
      'wrong audience': bearer(await idp.sign({ email }, { audience: 'another-service' })),
      'wrong issuer': bearer(await idp.sign({ email }, { issuer: 'https://evil.example.test/' })),
      'alg none': bearer(idp.unsigned({ email })),
      'HS256-signed': bearer(await idp.signHs256({ email })),
      'no exp': bearer(await idp.sign({ email }, { expiresIn: null })),
      'both headers': { ...alice, ...bearer(await idp.sign({ email })) },
      'own account': alice,
      'own account via JWT': bearer(await idp.sign({ email, email_verified: true, sub: 'alice' })),
      'same-org account_id': alice,
      'other-org account_id': alice,
      'admin account_id': world.dave.headers,
      'non-member organization_id': alice,
    };
  });
  afterAll(async () => {
    await t?.close();
    await idp?.close();
  });

  it('has cases for every route in the route table, and none for routes that do not exist', () => {
    const missing = routes.filter((r) => !cases[r.key]).map((r) => r.key);
    expect({ missing, hint: 'add them in test/access/<module>.cases.ts (format: test/access/registry.ts)' }).toEqual({ missing: [], hint: expect.any(String) });
    const known = new Set(routes.map((r) => r.key));
    expect(Object.keys(cases).filter((k) => !known.has(k))).toEqual([]);
  });

  // A bad credential fails the whole GraphQL request; none at all fails each protected field (since
  // signupAgent and verifyAgent need none). Either way an answer without data is UNAUTHENTICATED's
  // one status, 401, as application/graphql-response+json (t.graphql), and 200 as application/json.
  it.each([...CREDENTIAL_CASES])('GraphQL refuses %s', async (name) => {
    const res = await t.graphql('{ me { id } }', {}, credentials[name]);
    expect({ status: res.status, data: res.body.data?.me ?? null, code: res.body.errors?.[0]?.extensions?.code }).toEqual({ status: 401, data: null, code: 'UNAUTHENTICATED' });
    const json = await t.graphql('{ me { id } }', {}, { ...credentials[name], accept: 'application/json' });
    expect({ status: json.status, code: json.body.errors?.[0]?.extensions?.code }).toEqual({ status: 200, code: 'UNAUTHENTICATED' });
  });

  describe.each(routes)('$key', ({ route, key }) => {
    it.each(allCases)('%s', async (name) => {
      const entry = cases[key];
      if (!entry) throw new Error(`no access cases for ${key}: add them in test/access/<module>.cases.ts`);
      const situation = situationFor(name);
      const built: AccessRequest = (await entry.request?.(situation)) ?? {};
      const path = built.path ?? `/api${route.path}`;
      if (path.includes('/:')) throw new Error(`${key}: request() must return a concrete path`);
      const send = (extra: Record<string, string>) => {
        const query = { ...built.query };
        let body = built.body ? { ...built.body } : undefined;
        if (route.method === 'GET' || route.method === 'DELETE') Object.assign(query, extra);
        else body = { ...body, ...extra };
        const req = t.http()[route.method.toLowerCase() as 'get' | 'post' | 'put' | 'patch' | 'delete'](path).set(credentials[name]).query(query);
        return route.method === 'GET' ? req : req.send(body ?? {});
      };
      const extra: Record<string, string> = {};
      if (!entry.placesIds) {
        if (situation.accountId) extra.account_id = situation.accountId;
        if (name === 'non-member organization_id') extra.organization_id = situation.organizationId;
      }
      // A route that does not take account_id / organization_id refuses them (a 400 naming them, before
      // any access check): the case then runs without them, as the caller's own request.
      const taken = takenBy(route);
      const untaken = Object.keys(extra).filter((k) => !taken.has(k));
      if (untaken.length) {
        const refused = await send(extra);
        const named = ((refused.body?.details ?? []) as { field: string }[]).map((d) => d.field);
        expect({ status: refused.status, named: untaken.filter((k) => named.includes(k)) }).toEqual({ status: 400, named: untaken });
        for (const k of untaken) delete extra[k];
      }
      const res = await send(extra);
      const expected = expectedStatus(entry, Boolean(route.public), name);
      expect({ status: res.status, code: res.body?.code }).toEqual({ status: expected, code: expected >= 400 ? codeFor(expected) : undefined });
    });
  });

  // Rows named by a natural key (test/access/graphql-reach.ts): GraphQL answers only what the
  // caller reaches; a row out of reach reads like a missing one.
  describe.each(Object.entries(READS))('GraphQL %s', (_label, read) => {
    it.each(allCases)('%s', async (name) => {
      const s = situationFor(name);
      const rows = await rowsOf(s, ownerOf(name));
      await read.prepare?.(s, rows);
      const req = read.request(rows);
      const res = await t.graphql(req.query, req.variables, { ...credentials[name], ...(req.router ? router : {}) });
      const codes = (res.body.errors ?? []).map((e: { extensions?: { code?: string } }) => e.extensions?.code);
      if (name === 'no credentials') {
        // Each protected field fails alone: nothing resolves, and no error but UNAUTHENTICATED (401
        // when nothing of the answer is left, 200 beside data such as an _entities list of nulls).
        const others = codes.filter((c: string) => c !== 'UNAUTHENTICATED');
        const status = res.body.data == null ? 401 : 200;
        expect({ status: res.status, value: read.pick(res.body.data), others }).toEqual({ status, value: null, others: [] });
        return;
      }
      if (isCredentialCase(name)) {
        expect(res.status).toBe(401);
        return;
      }
      if (reaches(name)) {
        expect({ codes, value: read.pick(res.body.data) }).toEqual({ codes: [], value: read.visible(rows) });
      } else {
        expect({ codes, value: read.pick(res.body.data) }).toEqual({ codes: read.hiddenCode ? [read.hiddenCode] : [], value: null });
      }
    });
  });

  // Natural-key writes: the caller posts the owner's ISRC into a catalog of its own and the
  // owner's profile URL onto an artist of its own; the owner's rows read exactly as before, for
  // every case (the owner itself and the admin included). Runs after the reads above, which
  // expect the owner's entry to be the only one the caller reaches for that ISRC.
  describe('natural-key writes change only rows of the caller', () => {
    it.each(allCases)('%s', async (name) => {
      const s = situationFor(name);
      const rows = await rowsOf(s, ownerOf(name));
      const scratch = await scratchOf(s, name === 'admin account_id' ? world.dave.headers : world.alice.headers);
      const ownerView = async () => ({
        songs: (await t.http().get('/api/catalogs/songs').query({ catalog_id: rows.catalogId }).set(rows.ownerHeaders)).body,
        socials: (await t.http().get(`/api/artists/${rows.artistId}/socials`).set(rows.ownerHeaders)).body,
      });
      const before = await ownerView();
      expect(before.songs.songs).toHaveLength(1);
      expect(before.socials.socials).toHaveLength(1);

      const song = await t.graphql(
        'mutation($songs: [CatalogSongInput!]!) { addCatalogSongs(input: { songs: $songs }) { isrc name } }',
        { songs: [{ catalogId: scratch.catalogId, isrc: rows.isrc, name: 'OVERWRITTEN', album: 'overwritten', lyrics: 'overwritten' }] },
        credentials[name],
      );
      const social = await t.http().post(`/api/artists/${scratch.artistId}/socials`).set(credentials[name])
        .send({ profile_url: rows.profileUrl, username: 'overwritten', bio: 'overwritten', avatar: 'https://evil.example.test/a.png', follower_count: 0 });
      if (isCredentialCase(name)) {
        expect({ graphql: res401(song), code: song.body.errors?.[0]?.extensions?.code, rest: social.status }).toEqual({ graphql: 401, code: 'UNAUTHENTICATED', rest: 401 });
      } else {
        expect({ graphql: song.body.errors, posted: song.body.data?.addCatalogSongs, rest: social.status }).toEqual({
          graphql: undefined,
          posted: [{ isrc: rows.isrc, name: 'OVERWRITTEN' }],
          rest: 200,
        });
      }
      expect(await ownerView()).toEqual(before);
    });
  });

  function situationFor(name: CaseName): Situation {
    const admin = name === 'admin account_id';
    const accountIds: Partial<Record<CaseName, string>> = {
      'same-org account_id': world.bob.account.id,
      'other-org account_id': world.carol.account.id,
      'admin account_id': world.carol.account.id,
    };
    return {
      case: name,
      t,
      world,
      callerId: admin ? world.dave.account.id : world.alice.account.id,
      accountId: accountIds[name],
      organizationId: admin || name === 'non-member organization_id' ? world.orgB : world.orgA,
      unique: randomUUID().slice(0, 8),
      freshAccount: async (organizations = []) => {
        const created = await createAccount(t.orm, { organizations });
        return { id: created.account.id, headers: created.headers };
      },
      once: <T>(key: string, make: () => Promise<T>): Promise<T> => {
        if (!shared.has(key)) shared.set(key, make());
        return shared.get(key) as Promise<T>;
      },
    };
  }
});

function isCredentialCase(name: CaseName): boolean {
  return (CREDENTIAL_CASES as readonly string[]).includes(name);
}

/** A refused GraphQL request: its HTTP status (a bad credential), or its error code (none at all). */
function res401(res: { status: number; body: { errors?: { extensions?: { code?: string } }[] } }): number | string | undefined {
  return res.status === 401 ? 401 : res.body.errors?.[0]?.extensions?.code;
}

function codeFor(status: number): string {
  return ({ 400: 'BAD_USER_INPUT', 401: 'UNAUTHENTICATED', 403: 'FORBIDDEN', 404: 'NOT_FOUND', 429: 'RATE_LIMITED' } as Record<number, string>)[status];
}
