import type { Orm } from '../src/db/orm';

/** Counts SQL statements sent by the app's pool while `measure` runs. */
export class SqlCounter {
  private statements: string[] = [];
  private active = false;

  constructor(orm: Orm) {
    orm.em.getConnection().getKnex().on('query', (query: { sql: string }) => {
      if (this.active) this.statements.push(query.sql);
    });
  }

  async measure<T>(run: () => Promise<T>): Promise<{ result: T; count: number; statements: string[] }> {
    this.statements = [];
    this.active = true;
    try {
      const result = await run();
      return { result, count: this.statements.length, statements: [...this.statements] };
    } finally {
      this.active = false;
    }
  }
}
