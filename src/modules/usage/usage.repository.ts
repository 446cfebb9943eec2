import { query } from '../../db/sql';
import type { Db } from '../../db/request-db';

export interface UsageRow {
  /** The period's start (PostgreSQL's text of a timestamptz, or a Date). */
  start: Date | string;
  request_points: string;
  research_points: string;
  provider_calls: string;
  stored_answers: string;
  render_runs: number;
  render_pixel_frames: string;
  webhook_deliveries: string;
}

/** The usage tables' reads: account_usage (flushed by every instance) and render_runs. */
export class UsageRepository {
  constructor(private readonly db: Db) {}

  /** One row per period from `from` to `to` (exclusive), every period present, in one statement. */
  periods(accountId: string, from: Date, to: Date, granularity: 'day' | 'hour'): Promise<UsageRow[]> {
    const step = granularity === 'day' ? '1 day' : '1 hour';
    return query<UsageRow>(
      this.db.em,
      `with periods as (
         select generate_series(?::timestamptz, ?::timestamptz - interval '1 microsecond', ?::interval) as start
       ), used as (
         select date_trunc(?, hour, 'UTC') as start, sum(request_points) as request_points, sum(research_points) as research_points,
                sum(provider_calls) as provider_calls, sum(stored_answers) as stored_answers, sum(webhook_deliveries) as webhook_deliveries
           from account_usage where account_id = ? and hour >= ? and hour < ? group by 1
       ), rendered as (
         select date_trunc(?, created_at, 'UTC') as start, count(*)::int as render_runs, sum(pixel_frames) as render_pixel_frames
           from render_runs where account_id = ? and created_at >= ? and created_at < ? group by 1
       )
       select p.start, coalesce(u.request_points, 0)::text as request_points, coalesce(u.research_points, 0)::text as research_points,
              coalesce(u.provider_calls, 0)::text as provider_calls, coalesce(u.stored_answers, 0)::text as stored_answers,
              coalesce(r.render_runs, 0) as render_runs, coalesce(r.render_pixel_frames, 0)::text as render_pixel_frames,
              coalesce(u.webhook_deliveries, 0)::text as webhook_deliveries
         from periods p left join used u on u.start = p.start left join rendered r on r.start = p.start
        order by p.start`,
      [from, to, step, granularity, accountId, from, to, granularity, accountId, from, to],
    );
  }

  /** Whether the account exists. */
  async accountExists(accountId: string): Promise<boolean> {
    return (await query<{ one: number }>(this.db.em, 'select 1 as one from accounts where id = ?', [accountId])).length > 0;
  }

  /** Replaces the account's overrides (none: the row goes); the trigger announces the change to every instance. */
  async setLimits(accountId: string, limits: Record<string, number>, by: string): Promise<void> {
    if (!Object.keys(limits).length) {
      await this.db.em.execute('delete from account_limits where account_id = ?', [accountId]);
      return;
    }
    await this.db.em.execute(
      `insert into account_limits (account_id, limits, updated_at, updated_by) values (?, ?::jsonb, now(), ?)
       on conflict (account_id) do update set limits = excluded.limits, updated_at = now(), updated_by = excluded.updated_by`,
      [accountId, JSON.stringify(limits), by],
    );
  }
}
