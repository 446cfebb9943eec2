import 'reflect-metadata';
import { instructions } from './instructions';
import { sideBySide } from './side-by-side';
import { throughput } from './throughput';

/**
 * `npm run bench`: the side-by-side harness of issue #14 (README, Performance).
 * `npm run bench -- --throughput`: the older closed-loop throughput run (autocannon, in-process app).
 * `npm run bench -- --instructions`: instructions a request costs, counted by callgrind (bench/instructions.ts).
 */
const mode = process.argv.includes('--throughput') ? throughput : process.argv.includes('--instructions') ? instructions : sideBySide;
mode().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
