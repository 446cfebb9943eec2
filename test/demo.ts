import { DEMO, DEMO_KEYS } from '../src/db/seeders/demo.data';

export { DEMO };

/** x-api-key headers of the demo accounts. */
export const as = {
  ada: { 'x-api-key': DEMO_KEYS[0].raw },
  nora: { 'x-api-key': DEMO_KEYS[1].raw },
  sam: { 'x-api-key': DEMO_KEYS[2].raw },
  otto: { 'x-api-key': DEMO_KEYS[3].raw },
};
