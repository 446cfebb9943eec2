/**
 * How much the old generation grows while 1,500 answers of 16 KB are read one after another through
 * `send` (src/db/sql.ts) on one pg client: printed as JSON `{ grown, length }`. Run as a plain node
 * process by src/db/sql.int.test.ts, with its own heap: inside jest's module sandbox on Node 24 the
 * answers reach the old generation whatever sends them, so the reading there says nothing.
 *
 * `node -r test/support/swc-register.js test/support/promotion-probe.ts <database url> [send|promise]`:
 * `promise` reads through pg's promise form instead (`client.query(config)`), the form `send` replaces.
 */
import { Client } from 'pg';
import { send } from '../../src/db/sql';
import { oldGenerationGrowth } from './old-generation';

const ANSWERS = 1500;
const SIZE = 16_000;

async function main(): Promise<void> {
  const [url, form = 'send'] = process.argv.slice(2);
  const client = new Client({ connectionString: url });
  await client.connect();
  const config = { name: 'promotion_probe', text: `select repeat('x', $1::int) as text`, values: [SIZE] };
  const read = (): Promise<{ rows: { text: string }[] }> =>
    form === 'promise' ? (client.query(config) as Promise<{ rows: { text: string }[] }>) : send<{ rows: { text: string }[] }>(client, config);
  await read();
  let length = 0;
  const grown = await oldGenerationGrowth(ANSWERS, async () => {
    const { rows } = await read();
    length += rows[0].text.length;
  });
  await client.end();
  process.stdout.write(`${JSON.stringify({ grown, length })}\n`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
