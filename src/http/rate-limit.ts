import type { Response } from 'express';
import { Charge, decisive, RateLimiter, rateLimitedError, rateLimitHeaders } from '../auth/rate-limit';

/**
 * Charges one REST request and writes the RateLimit-* headers; throws RATE_LIMITED (429 with
 * Retry-After) past the budget. res.locals.rateLimited names the budget for the metrics.
 */
export async function chargeRequest(limiter: RateLimiter, res: Response, charge: Charge): Promise<void> {
  const decision = decisive(await limiter.consume([charge]));
  if (!decision) return;
  res.set(rateLimitHeaders(decision));
  if (!decision.allowed) {
    res.locals.rateLimited = decision.budget;
    throw rateLimitedError(decision);
  }
}
