import type { Orm } from '../../db/orm';

/** What the signed media route needs to know of runs: why a validly signed link finds no file. */
export function renderFiles(orm: Orm) {
  return {
    async outputExpiredAt(runId: string): Promise<Date | null> {
      const rows = await orm.em.getConnection().execute<{ output_expired_at: Date | null }[]>('select output_expired_at from render_runs where id = ?', [runId]);
      return rows[0]?.output_expired_at ?? null;
    },
  };
}
