import { createTestApp, GRAPHQL_RESPONSE_JSON, TestApp } from '../app';

/**
 * An operation refused for missing credentials (credentialsRequired) is charged like every refusal,
 * and its answer says so in extensions.cost, whether the charge comes from a lease held in memory
 * or takes a statement: Apollo answers on the first plugin's refusal without waiting for the
 * others, so the rate-limit plugin's answer waits for its own charge.
 */
describe.each([
  ['leases on (production default)', false],
  ['leases off (one statement a charge)', true],
] as const)('a refused anonymous operation is charged and says so: %s', (_name, deterministicBudgets) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ deterministicBudgets });
  });
  afterAll(() => t?.close());

  it('every answer is a 401 carrying its charge', async () => {
    for (let i = 0; i < 5; i++) {
      const res = await t.http().post('/graphql').set('content-type', 'application/json').set(GRAPHQL_RESPONSE_JSON).send({ query: '{ me { id } }' });
      expect(res.status).toBe(401);
      expect(res.body.errors[0].extensions.code).toBe('UNAUTHENTICATED');
      expect(res.body.extensions?.cost).toMatchObject({ actualQueryCost: 1 });
    }
  });
});
