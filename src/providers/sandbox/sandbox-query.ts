import type { SandboxReply } from './sandbox-server';

/** Paging parameters as the upstreams read them: a bad value is the upstream's own 400. */
export function paging(query: URLSearchParams, defaults: { limit: number; max: number }): { limit: number; offset: number } | SandboxReply {
  const limit = query.has('limit') ? Number(query.get('limit')) : defaults.limit;
  const offset = query.has('offset') ? Number(query.get('offset')) : 0;
  if (!Number.isInteger(limit) || limit < 0 || limit > defaults.max) return { status: 400, body: { error: { status: 400, message: `Invalid limit` } } };
  if (!Number.isInteger(offset) || offset < 0) return { status: 400, body: { error: { status: 400, message: 'Invalid offset' } } };
  return { limit, offset };
}

export function isReply(value: unknown): value is SandboxReply {
  return typeof value === 'object' && value !== null && 'status' in value;
}

/** Search text as a lower-case needle, without field filters such as `artist:`. */
export function needle(q: string): string {
  return q.replace(/\b\w+:/g, '').trim().toLowerCase();
}
