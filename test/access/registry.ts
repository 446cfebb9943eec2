/**
 * ACCESS-MATRIX REGISTRY: every REST route × every access case → expected HTTP status.
 *
 * access-matrix.int.test.ts walks the route table (`modules.flatMap(m => m.routes)`) and runs every
 * case below against every route. A route without an entry fails the suite, and so does an entry
 * whose route no longer exists.
 *
 * HOW TO ADD A ROUTE: in `test/access/<module>.cases.ts` (loaded automatically; no other file to
 * touch) export `cases`, keyed by "METHOD /api/path" exactly as the route table spells the path:
 *
 *   import type { AccessCases } from './registry';
 *   export const cases: AccessCases = {
 *     'GET /api/catalogs': { accountId: true },                                  // takes account_id
 *     'GET /api/artists': { accountId: true, organizationId: true },             // and organization_id
 *     'DELETE /api/keys/:id': {
 *       request: async (s) => ({ path: `/api/keys/${await keyOf(s.t, s.callerId)}` }),
 *       expect: { 'same-org account_id': 400, 'other-org account_id': 400, 'admin account_id': 400 },
 *     },
 *     'POST /api/catalogs': { request: (s) => ({ body: { name: `Catalog ${s.unique}` } }), ok: 200 },
 *   };
 *
 * Entry fields (all optional):
 * - request(s): the request a case sends, as `{ path?, query?, body? }`; `path` is the concrete
 *   path (default: the route path, which then must have no `:params`). It may create data: it runs
 *   once per case, so use `s.unique` / `s.freshAccount()` for anything a request consumes, and
 *   `s.once(name, make)` for data the cases only read or may change freely (made by the first case
 *   that asks, then shared by every case of every route asking for the same name).
 * - ok: status of an accepted request (default 200).
 * - accountId: true when the route honours account_id (rules 5-8). The harness then expects 403
 *   for "other-org account_id" and the route's ok status for own / same-org / admin.
 * - organizationId: true when the route honours organization_id (rule 7): "non-member
 *   organization_id" expects 403.
 * - placesIds: true when request() itself puts `s.accountId` / `s.organizationId` where the route
 *   takes them (a path segment, a nested body). Otherwise the harness adds `account_id` (the
 *   same-org, other-org and admin cases) and `organization_id` (the non-member case) to the query
 *   (GET, DELETE) or the JSON body. A route that does not take one of them must refuse it (400
 *   naming it, checked first); the case's expected status is then that of the request without it.
 * - expect: per-case overrides, e.g. `{ 'other-org account_id': 400 }`.
 *
 * Credential cases expect 401 on every route except `public: true` ones, which ignore credentials
 * and expect `ok`. The world (test/access/world.ts): caller Alice and Bob in organization A, Carol
 * in organization B, Dave in the admin organization; cases act as Alice except "admin account_id"
 * (Dave, sending Carol's id and organization B).
 *
 * GraphQL reach (test/access/graphql-reach.ts): rows named by a natural key (song(isrc), the
 * `_entities` references of Song, Catalog and Artist, root fields by id, and their nested songs
 * and socials) × the same cases, and natural-key writes (another account's ISRC or profile URL
 * posted into the caller's own rows) that must leave the owner's rows unchanged. Add a READS
 * entry there for a new root field or entity reference reached by a key, or for a field that
 * links provider data (an ISRC) back to owned rows (`prepare` makes what the read needs).
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { TestApp } from '../app';
import type { World } from './world';

export const CREDENTIAL_CASES = [
  'no credentials',
  'malformed key',
  'revoked key',
  'expired JWT',
  'wrong audience',
  'wrong issuer',
  'alg none',
  'HS256-signed',
  'no exp',
  'both headers',
] as const;

export const ACCOUNT_CASES = [
  'own account',
  'own account via JWT',
  'same-org account_id',
  'other-org account_id',
  'admin account_id',
  'non-member organization_id',
] as const;

export type CaseName = (typeof CREDENTIAL_CASES)[number] | (typeof ACCOUNT_CASES)[number];

export interface Situation {
  case: CaseName;
  t: TestApp;
  world: World;
  /** The account whose credentials the case sends (Alice, or Dave for "admin account_id"). */
  callerId: string;
  /** account_id this case sends; undefined for "own account" and the credential cases. */
  accountId?: string;
  /** organization_id this case sends: organization A, or B for the non-member and admin cases. */
  organizationId: string;
  /** Unique per request, for names and addresses a request consumes. */
  unique: string;
  /** A new person account (optionally a member of organizations), for routes that consume one. */
  freshAccount(organizations?: string[]): Promise<{ id: string; headers: Record<string, string> }>;
  /**
   * `make()` run once per matrix run for `name` (prefix it with the module), its promise shared by
   * every later call with that name: setup that need not be repeated for each of the ~16 cases.
   */
  once<T>(name: string, make: () => Promise<T>): Promise<T>;
}

export interface AccessRequest {
  path?: string;
  query?: Record<string, string>;
  body?: Record<string, unknown>;
}

export interface RouteCases {
  request?(s: Situation): AccessRequest | Promise<AccessRequest>;
  ok?: number;
  accountId?: boolean;
  organizationId?: boolean;
  placesIds?: boolean;
  expect?: Partial<Record<CaseName, number>>;
}

export type AccessCases = Record<string, RouteCases>;

/** Every `*.cases.ts` beside this file, merged; a key defined twice is an error. */
export function loadCases(): AccessCases {
  const merged: AccessCases = {};
  for (const file of readdirSync(__dirname).filter((f) => f.endsWith('.cases.ts')).sort()) {
    const { cases } = require(join(__dirname, file)) as { cases: AccessCases };
    for (const [key, entry] of Object.entries(cases)) {
      if (merged[key]) throw new Error(`access cases for "${key}" are defined twice (${file})`);
      merged[key] = entry;
    }
  }
  return merged;
}

/** The expected status of one case on one route. */
export function expectedStatus(entry: RouteCases, isPublic: boolean, name: CaseName): number {
  const ok = entry.ok ?? 200;
  if (entry.expect?.[name] !== undefined) return entry.expect[name]!;
  if ((CREDENTIAL_CASES as readonly string[]).includes(name)) return isPublic ? ok : 401;
  if (name === 'other-org account_id' && entry.accountId) return 403;
  if (name === 'non-member organization_id' && entry.organizationId) return 403;
  return ok;
}
