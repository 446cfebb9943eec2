import { DEMO, DEMO_KEYS } from '../src/db/seeders/demo.data';

export { DEMO };

/** x-api-key headers of the demo accounts. */
export const as = {
  ada: { 'x-api-key': DEMO_KEYS[0].raw },
  nora: { 'x-api-key': DEMO_KEYS[1].raw },
  sam: { 'x-api-key': DEMO_KEYS[2].raw },
  otto: { 'x-api-key': DEMO_KEYS[3].raw },
};

/** ROUTER_SECRET of test apps (createTestApp; pass `env: { ROUTER_SECRET: '' }` for none). */
export const TEST_ROUTER_SECRET = 'test-router-secret-0123456789';

/** The federation router's shared secret header, as test apps are configured (_service, _entities). */
export const router = { 'x-router-secret': TEST_ROUTER_SECRET };
