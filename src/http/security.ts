import cors from 'cors';
import type { RequestHandler } from 'express';
import helmet from 'helmet';

/** Headers a browser client may send: the two credentials, JSON bodies, and a request id. */
const ALLOWED_HEADERS = ['x-api-key', 'authorization', 'content-type', 'x-request-id'];
/** Headers a browser client may read besides the safelisted ones. */
const EXPOSED_HEADERS = ['retry-after', 'x-request-id'];

/**
 * helmet's headers on every response. The default CSP is for data (JSON, metrics): nothing may
 * load, run or frame it; the two HTML pages set their own (DOCS_CSP). Rendered videos are meant
 * to be embedded elsewhere, so their routes relax Cross-Origin-Resource-Policy.
 */
export function securityHeaders(): RequestHandler {
  return helmet({
    contentSecurityPolicy: {
      useDefaults: false,
      directives: { defaultSrc: ["'none'"], frameAncestors: ["'none'"], baseUri: ["'none'"], formAction: ["'none'"] },
    },
    frameguard: { action: 'deny' },
    referrerPolicy: { policy: 'no-referrer' },
  });
}

/** Lets rendered videos be embedded by other sites (the signed link is the credential). */
export const embeddableMedia: RequestHandler = (_req, res, next) => {
  res.setHeader('cross-origin-resource-policy', 'cross-origin');
  next();
};

/**
 * CORS for the exact origins in CORS_ORIGINS; any other origin (or none configured) gets no CORS
 * header at all, and its preflight falls through to the routes. Credentials are headers, never
 * cookies, so Access-Control-Allow-Credentials stays off.
 */
export function corsPolicy(origins: string[]): RequestHandler {
  const allowed = new Set(origins);
  return cors({
    origin: (origin, callback) => callback(null, origin !== undefined && allowed.has(origin)),
    methods: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'],
    allowedHeaders: ALLOWED_HEADERS,
    exposedHeaders: EXPOSED_HEADERS,
    credentials: false,
    maxAge: 600,
  });
}
