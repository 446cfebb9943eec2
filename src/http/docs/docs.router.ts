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
 * The API reference inside the /api router (decisions §2: no credentials): GET /api/openapi.json,
 * the reference page at /api/docs (Swagger UI) and its assets, and GET /api from a browser (a
 * redirect to the reference). Paths are relative to /api, where
 * app.ts mounts one router holding these first and then the REST routes, which answer 404 for any
 * other /api path.
 */
export function apiDocsRouter(openapi: OpenApiDocument): express.Router {
  const router = express.Router();
  const body = JSON.stringify(openapi);
  // A browser (Accept: text/html before JSON) at /api is sent to the reference; API clients get the REST routes' answer.
  router.get('/', (req, res, next) => {
    res.vary('Accept');
    if (req.accepts(['json', 'html']) !== 'html') return next();
    res.locals.route = '/api';
    res.set('cache-control', PUBLIC_PAGE).redirect(302, '/api/docs');
  });
  router.get('/openapi.json', (_req, res) => {
    res.locals.route = '/api/openapi.json';
    res.type('application/json; charset=utf-8').set('access-control-allow-origin', '*').set('cache-control', PUBLIC_PAGE).send(body);
  });
  router.get(['/docs', '/docs/'], (_req, res) => {
    res.locals.route = '/api/docs';
    res.type('text/html; charset=utf-8').set('content-security-policy', DOCS_CSP).set('cache-control', PUBLIC_PAGE).send(swaggerPage());
  });
  router.get('/docs/init.js', (_req, res) => {
    res.locals.route = '/api/docs';
    res.type('text/javascript; charset=utf-8').set('cache-control', PUBLIC_PAGE).send(SWAGGER_INIT);
  });
  router.use('/docs/assets', serveAssets(swaggerAssets(), '/api/docs/assets'), absentAsset);
  return router;
}

/** Anything else below an asset folder is absent (not a GraphQL request, not a REST route). */
function absentAsset(req: Request, res: Response): void {
  res.locals.route = 'unmatched';
  sendError(res, toHttpError(new AppError('NOT_FOUND', `No asset ${req.originalUrl.split('?')[0]}`)));
}

/**
 * The public pages outside /api: the favicon, /docs (a redirect to /api/docs) and GraphiQL's
 * assets (the page itself is GET /graphql from a browser).
 */
export function docsRouter(): express.Router {
  const router = express.Router();
  // Browsers ask every origin for /favicon.ico; Swagger UI's own icon (a PNG, which browsers accept there) answers it.
  const icon = swaggerAssets()['favicon-32x32.png'];
  router.get('/favicon.ico', (_req, res) => {
    res.locals.route = '/favicon.ico';
    res.type(icon.type).set('cache-control', 'public, max-age=86400').sendFile(icon.file);
  });
  // Where people look first: /docs leads to the reference.
  router.get(['/docs', '/docs/'], (_req, res) => {
    res.locals.route = '/docs';
    res.set('cache-control', PUBLIC_PAGE).redirect(302, '/api/docs');
  });
  router.get('/graphql/assets/init.js', (_req, res) => {
    res.locals.route = '/graphql/assets';
    res.type('text/javascript; charset=utf-8').set('cache-control', PUBLIC_PAGE).send(GRAPHIQL_INIT);
  });
  router.use('/graphql/assets', serveAssets(graphiqlAssets(), '/graphql/assets'), absentAsset);
  return router;
}
