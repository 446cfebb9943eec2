import { AppError } from '../../common/errors';
import type { Config } from '../../config/config';
import type { RenderPayload } from './render.entity';

/** Runs SQL inside the admitting transaction. */
export type TxSql = <T>(sql: string, params: unknown[]) => Promise<T[]>;

/** 429 of render admission; `limit` says which one (for metrics). */
export class RenderLimitError extends AppError {
  constructor(readonly limit: 'active' | 'daily_budget', message: string, retryAfter: number) {
    super('RATE_LIMITED', message, { retryAfter });
  }
}

type Limits = Pick<Config['render'], 'maxActivePerAccount' | 'dailyPixelFrames'>;

const WINDOW = "interval '24 hours'";
/** A run canceled before any worker started it rendered nothing: it costs no budget. */
const COUNTED = "(status <> 'CANCELED' or started_at is not null)";
/** Retry-After when no running render gives a better estimate. */
const UNKNOWN_WAIT_S = 30;

export const pixelFrames = (p: Pick<RenderPayload, 'width' | 'height' | 'durationInFrames'>): number => p.width * p.height * p.durationInFrames;

/** A render that alone exceeds the daily budget can never be admitted: bad input, not "later". */
export function checkFitsBudget(payload: RenderPayload, limits: Limits): void {
  const cost = pixelFrames(payload);
  if (cost <= limits.dailyPixelFrames) return;
  const message = `width × height × durationInFrames = ${cost} pixel-frames exceeds the daily render budget of ${limits.dailyPixelFrames}`;
  throw new AppError('BAD_USER_INPUT', `Invalid input: ${message}`, {
    details: ['width', 'height', 'durationInFrames'].map((field) => ({ field, message })),
  });
}

/**
 * Admission of one more render for an account, inside the transaction that then inserts the run:
 * a per-account advisory lock serializes concurrent requests, so the counts cannot be raced.
 * Throws 429 RATE_LIMITED (with Retry-After) past the active cap or the rolling 24 h budget.
 */
export async function admitRender(sql: TxSql, accountId: string, payload: RenderPayload, limits: Limits): Promise<void> {
  await sql(`select pg_advisory_xact_lock(hashtextextended('render-admission:' || ?, 0))`, [accountId]);
  const [usage] = await sql<{ active: number; used: string }>(
    `select count(*) filter (where status in ('QUEUED', 'EXECUTING'))::int as active,
            coalesce(sum(pixel_frames) filter (where created_at > now() - ${WINDOW} and ${COUNTED}), 0)::text as used
       from render_runs
      where account_id = ? and (status in ('QUEUED', 'EXECUTING') or created_at > now() - ${WINDOW})`,
    [accountId],
  );
  if (usage.active >= limits.maxActivePerAccount) {
    const message = `At most ${limits.maxActivePerAccount} renders may be queued or running per account; wait for one to finish`;
    throw new RenderLimitError('active', message, await activeWait(sql, accountId));
  }
  const cost = pixelFrames(payload);
  const over = Number(usage.used) + cost - limits.dailyPixelFrames;
  if (over > 0) {
    const message = `The daily render budget of ${limits.dailyPixelFrames} pixel-frames (width × height × durationInFrames, rolling 24 hours) would be exceeded; ${usage.used} are used`;
    throw new RenderLimitError('daily_budget', message, await budgetWait(sql, accountId, over));
  }
}

/** Seconds until the account's nearest-to-done render should finish, judged by its progress so far. */
async function activeWait(sql: TxSql, accountId: string): Promise<number> {
  const rows = await sql<{ progress: number; elapsed: number }>(
    `select progress, extract(epoch from now() - started_at)::float8 as elapsed
       from render_runs where account_id = ? and status = 'EXECUTING' and started_at is not null and progress > 0.01`,
    [accountId],
  );
  const estimates = rows.map((r) => (r.elapsed * (1 - r.progress)) / r.progress);
  const wait = estimates.length ? Math.min(...estimates) : UNKNOWN_WAIT_S;
  return Math.min(3600, Math.max(1, Math.ceil(wait)));
}

/** Seconds until enough of the window's oldest renders leave it to free `over` pixel-frames. */
async function budgetWait(sql: TxSql, accountId: string, over: number): Promise<number> {
  const [row] = await sql<{ wait: number }>(
    `select extract(epoch from created_at + ${WINDOW} - now())::float8 as wait
       from (select created_at, sum(pixel_frames) over (order by created_at, id) as freed
               from render_runs where account_id = ? and created_at > now() - ${WINDOW} and ${COUNTED}) w
      where freed >= ? order by created_at limit 1`,
    [accountId, over],
  );
  return Math.max(1, Math.ceil(row?.wait ?? 24 * 3600));
}
