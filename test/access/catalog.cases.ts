import type { AccessCases, Situation } from './registry';
import { made, target } from './support';

const ISRC = 'ZZMTX2600001';

/** A catalog linked to the account the case acts on (Alice, Bob or Carol), made by that account. */
async function newCatalogOf(s: Situation): Promise<{ catalogId: string; accountId: string }> {
  const owner = target(s);
  const res = await s.t.http().post('/api/catalogs').set(owner.headers).send({ name: `Matrix Catalog ${s.unique}` });
  return { catalogId: (await made<{ catalog: { id: string } }>('POST /api/catalogs', res)).catalog.id, accountId: owner.account.id };
}

/** The same, made once per account, for cases that only read it or add/remove one song. */
const catalogOf = (s: Situation) => s.once(`catalog:of:${target(s).account.id}`, () => newCatalogOf(s));

export const cases: AccessCases = {
  'GET /api/catalogs': { accountId: true },
  // {name} creates a catalog linked to account_id (default the caller).
  'POST /api/catalogs': { accountId: true, request: (s) => ({ body: { name: `Matrix Catalog ${s.unique}` } }) },
  // Each pair names its account: the catalog of the target account is unlinked (and, its last
  // link gone, deleted), so every case gets a catalog of its own.
  'DELETE /api/catalogs': {
    placesIds: true,
    accountId: true,
    request: async (s) => {
      const { catalogId, accountId } = await newCatalogOf(s);
      return { body: { catalogs: [{ catalog_id: catalogId, account_id: accountId }] } };
    },
  },
  // Catalog songs: the catalog is reached through the accounts linked to it (decisions §5).
  'GET /api/catalogs/songs': {
    placesIds: true,
    accountId: true,
    request: async (s) => ({ query: { catalog_id: (await catalogOf(s)).catalogId } }),
  },
  'POST /api/catalogs/songs': {
    placesIds: true,
    accountId: true,
    request: async (s) => ({ body: { songs: [{ catalog_id: (await catalogOf(s)).catalogId, isrc: ISRC, name: 'Matrix Song' }] } }),
  },
  'DELETE /api/catalogs/songs': {
    placesIds: true,
    accountId: true,
    request: async (s) => ({ body: { songs: [{ catalog_id: (await catalogOf(s)).catalogId, isrc: ISRC }] } }),
  },
};
