import { AppError } from '../../common/errors';
import { budgetDetails } from '../../auth/rate-limit';
import type { Config } from '../../config/config';
import type { RenderPayload } from './render.entity';
import type { RenderStore } from './render.repository';

/** 429 of render admission; `limit` says which one (for metrics). */
export class RenderLimitError extends AppError {
  constructor(readonly limit: 'active' | 'daily_budget', message: string, retryAfter: number) {
    super('RATE_LIMITED', message, { retryAfter, details: budgetDetails(limit === 'active' ? 'render_max_active' : 'render_daily_pixel_frames', retryAfter) });
  }
}

type Limits = Pick<Config['render'], 'maxActivePerAccount' | 'dailyPixelFrames'>;

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

/** What admission reads, inside the transaction that then inserts the run. */
export type AdmissionRecords = Pick<RenderStore, 'lockAdmission' | 'admissionUsage' | 'executingProgress' | 'budgetFreedIn'>;

/**
 * Admission of one more render for an account, inside the transaction that then inserts the run:
 * a per-account advisory lock serializes concurrent requests, so the counts cannot be raced.
 * Throws 429 RATE_LIMITED (with Retry-After) past the active cap or the rolling 24 h budget.
 */
export async function admitRender(records: AdmissionRecords, accountId: string, payload: RenderPayload, limits: Limits): Promise<void> {
  await records.lockAdmission(accountId);
  const usage = await records.admissionUsage(accountId);
  if (usage.active >= limits.maxActivePerAccount) {
    const message = `At most ${limits.maxActivePerAccount} renders may be queued or running per account; wait for one to finish`;
    throw new RenderLimitError('active', message, await activeWait(records, accountId));
  }
  const cost = pixelFrames(payload);
  const over = Number(usage.used) + cost - limits.dailyPixelFrames;
  if (over > 0) {
    const message = `The daily render budget of ${limits.dailyPixelFrames} pixel-frames (width × height × durationInFrames, rolling 24 hours) would be exceeded; ${usage.used} are used`;
    throw new RenderLimitError('daily_budget', message, await budgetWait(records, accountId, over));
  }
}

/** Seconds until the account's nearest-to-done render should finish, judged by its progress so far. */
async function activeWait(records: AdmissionRecords, accountId: string): Promise<number> {
  const rows = await records.executingProgress(accountId);
  const estimates = rows.map((r) => (r.elapsed * (1 - r.progress)) / r.progress);
  const wait = estimates.length ? Math.min(...estimates) : UNKNOWN_WAIT_S;
  return Math.min(3600, Math.max(1, Math.ceil(wait)));
}

/** Seconds until enough of the window's oldest renders leave it to free `over` pixel-frames. */
async function budgetWait(records: AdmissionRecords, accountId: string, over: number): Promise<number> {
  return Math.max(1, Math.ceil((await records.budgetFreedIn(accountId, over)) ?? 24 * 3600));
}
