import express, { Request, Response } from 'express';
import type { OpenApiDocument } from '../rest/openapi';
import { AppError } from '../../common/errors';
import { toHttpError } from '../../common/error-status';
import { sendError } from '../rest/rest.router';
import { PUBLIC_PAGE } from '../caching';
import { Asset, graphiqlAssets, swaggerAssets } from './assets';
import { DOCS_CSP, GRAPHIQL_INIT, SWAGGER_INIT, swaggerPage } from './pages';

function serveAssets(assets: Record<string, Asset>, route: string): express.Router {
  const router = express.Router();
  router.get('/:name', (req: Request, res: Response, next) => {
    const asset = assets[String(req.params.name)];
    if (!asset) return next();
    res.locals.route = route;
    res.type(asset.type).set('cache-control', 'public, max-age=86400').sendFile(asset.file);
  });
  return router;
}

/**
 * Whether docsRouter may serve a path below /api (given without the /api prefix): a superset of
 * what its /api routes match (the router ignores case, and takes a trailing slash), so anything
 * else below /api is the REST router's.
 */
export function mayBeDocs(path: string): boolean {
  const lower = path.toLowerCase();
  return lower === '/' || lower.startsWith('/docs') || lower.startsWith('/openapi.json');
}

/**
 * The public documentation routes (decisions §2: no credentials): GET /api/openapi.json, the API
 * reference page at /api/docs (Swagger UI) and the assets of both in-browser pages. Mounted before
 * the REST router, which answers 404 for any /api path it does not know.
 */
export function docsRouter(openapi: OpenApiDocument): express.Router {
  const router = express.Router();
  const body = JSON.stringify(openapi);
  router.get('/api/openapi.json', (_req, res) => {
    res.locals.route = '/api/openapi.json';
    res.type('application/json; charset=utf-8').set('access-control-allow-origin', '*').set('cache-control', PUBLIC_PAGE).send(body);
  });
  // Browsers ask every origin for /favicon.ico; Swagger UI's own icon (a PNG, which browsers accept there) answers it.
  const icon = swaggerAssets()['favicon-32x32.png'];
  router.get('/favicon.ico', (_req, res) => {
    res.locals.route = '/favicon.ico';
    res.type(icon.type).set('cache-control', 'public, max-age=86400').sendFile(icon.file);
  });
  // Where people look first: /docs and /api (in a browser) lead to the reference.
  router.get(['/docs', '/docs/'], (_req, res) => {
    res.locals.route = '/docs';
    res.set('cache-control', PUBLIC_PAGE).redirect(302, '/api/docs');
  });
  // A browser (Accept: text/html before JSON) at /api is sent to the reference; API clients get the REST router's answer.
  router.get(['/api', '/api/'], (req, res, next) => {
    res.vary('Accept');
    if (req.accepts(['json', 'html']) !== 'html') return next();
    res.locals.route = '/api';
    res.set('cache-control', PUBLIC_PAGE).redirect(302, '/api/docs');
  });
  router.get(['/api/docs', '/api/docs/'], (_req, res) => {
    res.locals.route = '/api/docs';
    res.type('text/html; charset=utf-8').set('content-security-policy', DOCS_CSP).set('cache-control', PUBLIC_PAGE).send(swaggerPage());
  });
  router.get('/api/docs/init.js', (_req, res) => {
    res.locals.route = '/api/docs';
    res.type('text/javascript; charset=utf-8').set('cache-control', PUBLIC_PAGE).send(SWAGGER_INIT);
  });
  router.use('/api/docs/assets', serveAssets(swaggerAssets(), '/api/docs/assets'));
  router.get('/graphql/assets/init.js', (_req, res) => {
    res.locals.route = '/graphql/assets';
    res.type('text/javascript; charset=utf-8').set('cache-control', PUBLIC_PAGE).send(GRAPHIQL_INIT);
  });
  router.use('/graphql/assets', serveAssets(graphiqlAssets(), '/graphql/assets'));
  // Anything else below the asset folders is absent (not a GraphQL request, not a REST route).
  router.use(['/graphql/assets', '/api/docs/assets'], (req: Request, res: Response) => {
    res.locals.route = 'unmatched';
    sendError(res, toHttpError(new AppError('NOT_FOUND', `No asset ${req.originalUrl.split('?')[0]}`)));
  });
  return router;
}
