import 'reflect-metadata';
import { createLogger } from '../common/logger';
import { loadConfig } from '../config/config';
import { openDatabase } from './database';
import { entities } from '../modules';
import { seedDemo } from './seeders/demo.seeder';

/** `npm run db:migrate` applies pending migrations; `npm run db:seed` loads the demo data set (idempotent). */
async function run(command: string | undefined): Promise<void> {
  const config = loadConfig();
  const logger = createLogger(config.logLevel, {}, config.logPretty);
  const database = await openDatabase(config, logger, { entities, migrate: true, seed: false });
  try {
    if (command === 'seed') {
      const created = await seedDemo(database.orm, config);
      console.log(created ? 'Demo data set loaded.' : 'Demo data set already present; nothing changed.');
    } else if (command === 'migrate') {
      console.log('Migrations are up to date.');
    } else {
      throw new Error(`Unknown command "${command}": use migrate or seed`);
    }
  } finally {
    await database.close();
  }
}

run(process.argv[2]).catch((error) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
