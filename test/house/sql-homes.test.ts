import { join } from 'node:path';
import { sqlOutsideRepositories, sqlTextsOf } from './sql-homes';

/**
 * Every table's SQL lives in its owner's repository (`*.repository.ts`; migrations are outside
 * src/). The only SQL texts allowed elsewhere are these, each argued in docs/architecture.md
 * ("SQL outside repositories"): none of them reads or writes a table a module or an
 * infrastructure room owns on a request's behalf.
 */
const ALLOWED: Record<string, string> = {
  // The database itself, owning no table of the service's:
  'src/db/embedded.ts': 'creates the embedded PostgreSQL database it starts (pg_database)',
  'src/db/listener.ts': 'LISTEN/NOTIFY on its own connection (pg_notify)',
  'src/db/session-lock.ts': 'a session advisory lock (pg_advisory_lock)',
  'src/db/settings.ts': 'the generic name/value settings row shared by every instance (one insert, one select)',
  'src/db/database.ts': "start-up's one connection: the applied migrations (mikro_orm_migrations) and the demo data set's version (its settings row)",
  'src/http/health.ts': 'readiness: `select 1`',
  // Demo data: the seeders fill every module's tables at `db:seed`, never on a request.
  'src/db/seeders/demo.seeder.ts': 'demo data for every module (composition root)',
  'src/db/seeders/research.seed.ts': 'demo research answers (composition root)',
  // Schema metadata, not statements: the partial/expression indexes MikroORM's @Index declares, as the migrations create them.
  'src/modules/account/account.entity.ts': 'an expression index declared on the entity',
  'src/modules/agent/agent-template.entity.ts': 'a partial index declared on the entity',
};

describe('SQL lives in repositories', () => {
  const root = join(__dirname, '..', '..');

  it('finds no SQL text outside *.repository.ts but the argued exceptions', () => {
    const strays = sqlOutsideRepositories(root).filter((s) => !(s.file in ALLOWED));
    expect(strays.map((s) => `${s.file}:${s.line}  ${s.text}`)).toEqual([]);
  });

  it('allows nothing that is gone (each exception still holds SQL)', () => {
    const files = new Set(sqlOutsideRepositories(root).map((s) => s.file));
    expect(Object.keys(ALLOWED).filter((file) => !files.has(file))).toEqual([]);
  });

  it('reports a statement in a string or template literal, by file and line', () => {
    const source = [
      "const label = 'Select a catalog from the list';",
      'export async function read(em: { execute(sql: string): unknown }) {',
      '  return em.execute(`select id',
      '    from catalogs where name = ${"x"}`);',
      '}',
      "const write = 'update catalogs set name = ? where id = ?';",
      "const remove = 'delete from catalogs';",
      "const add = 'insert into catalogs (id) values (?)';",
      "const shout = 'SELECT id FROM catalogs';",
    ].join('\n');
    expect(sqlTextsOf('src/modules/catalog/catalog.service.ts', source).map((s) => `${s.file}:${s.line}`)).toEqual([
      'src/modules/catalog/catalog.service.ts:3',
      'src/modules/catalog/catalog.service.ts:6',
      'src/modules/catalog/catalog.service.ts:7',
      'src/modules/catalog/catalog.service.ts:8',
      'src/modules/catalog/catalog.service.ts:9',
    ]);
  });
});
