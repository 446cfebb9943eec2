import type { Db } from '../db/request-db';

/** A budget's window: a minute, shared by every instance. */
export const WINDOW_S = 60;

/** A counter's state after a statement: its points, seconds left in its window, and the window's start in microseconds (as text). */
export interface CounterRow {
  key: string;
  points: number;
  reset_s: number;
  window_us: string;
}

/** The rate limiter's statements on `rate_limit_counters` (one row per budget key and window). */
export class RateLimitRepository {
  constructor(private readonly db: Db) {}

  /**
   * Adds each key's points to its current window (a fresh window when the last one ended), in one
   * hot statement; answers every key's counter after the addition.
   */
  reserve(entries: { key: string; points: number }[]): Promise<CounterRow[]> {
    return this.db.hot<CounterRow>(`insert into rate_limit_counters as c (key, window_start, points)
       values ${entries.map(() => '(?, now(), ?)').join(', ')}
       on conflict (key) do update set
         points = case when c.window_start > now() - interval '${WINDOW_S} seconds' then c.points + excluded.points else excluded.points end,
         window_start = case when c.window_start > now() - interval '${WINDOW_S} seconds' then c.window_start else now() end
       returning key, points, extract(epoch from window_start + interval '${WINDOW_S} seconds' - now())::float8 as reset_s,
         (extract(epoch from window_start) * 1000000)::bigint::text as window_us`,
      entries.flatMap((e) => [e.key, e.points]),
    );
  }

  /** Gives points back to each key's window, only while it is still the window they were taken from; answers the counters changed. */
  refund(entries: { key: string; points: number; window: string }[]): Promise<CounterRow[]> {
    return this.db.hot<CounterRow>(`update rate_limit_counters as c set points = greatest(0, c.points - r.points)
       from (values ${entries.map(() => '(?::text, ?::int, ?::bigint)').join(', ')}) as r(key, points, window_us)
       where c.key = r.key and (extract(epoch from c.window_start) * 1000000)::bigint = r.window_us
         and c.window_start > now() - interval '${WINDOW_S} seconds'
       returning c.key, c.points, extract(epoch from c.window_start + interval '${WINDOW_S} seconds' - now())::float8 as reset_s, r.window_us::text as window_us`,
      entries.flatMap((e) => [e.key, e.points, e.window]),
    );
  }

  /** Drops windows that have ended; answers the rows removed. */
  async dropEndedWindows(): Promise<number> {
    const rows = await this.db.execute<{ n: number }>(`with gone as (delete from rate_limit_counters where window_start <= now() - interval '${WINDOW_S} seconds' returning 1) select count(*)::int as n from gone`);
    return rows[0]?.n ?? 0;
  }
}
