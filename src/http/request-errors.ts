import { AppError } from '../common/errors';
import { payloadTooLarge } from './body';

const MALFORMED_PATH = 'has malformed percent-encoding';

/**
 * Errors express and body-parser raise before a handler runs (undecodable path parameter, bad or
 * oversized JSON, unsupported charset), as the AppError a client can act on; undefined for
 * anything else. `pathField` names the path parameter that could not be decoded, when known.
 */
export function requestError(error: unknown, bodyLimit: string, pathField = 'path'): AppError | undefined {
  // express decodes path parameters with decodeURIComponent, which throws on `%FF` or a lone `%`.
  if (error instanceof URIError) {
    return new AppError('BAD_USER_INPUT', `Invalid input: ${pathField}: ${MALFORMED_PATH}`, { details: [{ field: pathField, message: MALFORMED_PATH }] });
  }
  const bodyError = error as { type?: unknown; status?: unknown; expose?: unknown } | null;
  if (typeof bodyError?.status !== 'number' || bodyError.status >= 500) return undefined;
  // body-parser marks its own errors with a type, or (a body that fails to decompress) only as an exposable 4xx.
  if (typeof bodyError.type !== 'string' && bodyError.expose !== true) return undefined;
  switch (bodyError.type) {
    case 'entity.parse.failed':
      return new AppError('BAD_USER_INPUT', 'Malformed JSON in request body', { details: [{ field: 'body', message: 'is not valid JSON' }] });
    case 'entity.too.large':
      return payloadTooLarge(bodyLimit);
    case 'charset.unsupported':
    case 'encoding.unsupported':
      return new AppError('UNSUPPORTED_MEDIA_TYPE', 'The request body must be JSON in UTF-8, without an unknown Content-Encoding', {
        details: [{ field: 'content-type', message: 'must be application/json; charset=utf-8' }],
      });
    default:
      return new AppError('BAD_USER_INPUT', 'Unreadable request body', { details: [{ field: 'body', message: 'could not be read' }] });
  }
}

/**
 * The `:param` of whichever route pattern the raw path fits that cannot be percent-decoded, so a
 * malformed path names its parameter. `routePaths` are express patterns relative to the mount point.
 */
export function undecodableParam(routePaths: readonly string[], rawPath: string): string | undefined {
  const given = rawPath.split('/');
  for (const pattern of routePaths) {
    const parts = pattern.split('/');
    if (parts.length !== given.length || !parts.every((part, i) => part.startsWith(':') || part === given[i])) continue;
    for (let i = 0; i < parts.length; i += 1) {
      if (!parts[i].startsWith(':')) continue;
      try {
        decodeURIComponent(given[i]);
      } catch {
        return parts[i].slice(1);
      }
    }
  }
  return undefined;
}

/**
 * Whether a request carries a body at all: a body-less request (a DELETE, a POST .../read) needs
 * no Content-Type and reads as `{}`.
 */
export function hasBody(headers: Record<string, string | string[] | undefined>): boolean {
  if (headers['transfer-encoding'] !== undefined) return true;
  const length = Number(headers['content-length']);
  return Number.isFinite(length) && length > 0;
}

/** application/json or a `+json` type (parameters such as charset aside). */
export function isJsonMediaType(contentType: string | undefined): boolean {
  const type = (contentType ?? '').split(';')[0].trim().toLowerCase();
  return type === 'application/json' || /^application\/[\w.-]+\+json$/.test(type);
}
