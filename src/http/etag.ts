import { hash } from 'node:crypto';

/**
 * The weak ETag of an answer body, as Express's default (`etag` package, weak) makes it:
 * `W/"<length in hex>-<first 27 characters of the body's SHA-1, base64>"`, so a client's stored
 * validators still match. Express calls it from `res.send` for every answer with a body; the
 * default builds a `createHash` context each time, 5-8 µs more than the one-shot `crypto.hash` on a
 * songs page of 50 in a service process at saturation (28-31 µs against 20-29 µs on average,
 * bench/results/2026-11-27-young-generation.md).
 */
export function weakEtag(body: string | Buffer, encoding?: BufferEncoding): string {
  const bytes = typeof body === 'string' ? Buffer.from(body, encoding) : body;
  return `W/"${bytes.length.toString(16)}-${hash('sha1', bytes, 'base64').slice(0, 27)}"`;
}
