import express, { Request, Response } from 'express';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { AppError } from '../../common/errors';
import { toHttpError } from '../../common/error-status';
import { sendError } from '../rest/rest.router';
import { PUBLIC_PAGE } from '../caching';
import { Asset, packageDir } from '../docs/assets';
import { DASHBOARD_CSP, dashboardPage, LandingOptions, landingPage } from './dashboard.page';

/** public/dashboard at the repository root, from src/ (ts) or dist/src/ (built). */
function publicDir(): string {
  const candidates = [join(__dirname, '..', '..', '..', 'public', 'dashboard'), join(__dirname, '..', '..', '..', '..', 'public', 'dashboard')];
  const found = candidates.find((dir) => existsSync(join(dir, 'dashboard.js')));
  if (!found) throw new Error(`public/dashboard not found (looked in ${candidates.join(', ')})`);
  return found;
}

/** The dashboard's files by URL name: its own script and styles, and graphql-ws's browser build from npm. */
export function dashboardAssets(): Record<string, Asset> {
  const dir = publicDir();
  return {
    'dashboard.js': { file: join(dir, 'dashboard.js'), type: 'text/javascript; charset=utf-8' },
    'dashboard.css': { file: join(dir, 'dashboard.css'), type: 'text/css; charset=utf-8' },
    'graphql-ws.min.js': { file: join(packageDir('graphql-ws'), 'umd', 'graphql-ws.min.js'), type: 'text/javascript; charset=utf-8' },
  };
}

/**
 * Public pages (no credentials: the dashboard signs in from the browser with an API key):
 * GET /dashboard and its assets, the landing page /welcome, and GET / which sends a browser
 * (Accept: text/html first) to /welcome; API clients keep the JSON 404 of an unknown route.
 */
export function dashboardRouter(landingOptions: LandingOptions): express.Router {
  const router = express.Router();
  const assets = dashboardAssets();
  const page = dashboardPage();
  const landing = landingPage(landingOptions);
  router.get('/', (req: Request, res: Response, next) => {
    // A browser is sent on, an API client gets JSON: the answer depends on Accept.
    res.vary('Accept');
    if (req.accepts(['json', 'html']) !== 'html') return next();
    res.locals.route = '/';
    res.redirect(302, '/welcome');
  });
  router.get('/welcome', (_req, res) => {
    res.locals.route = '/welcome';
    res.type('text/html; charset=utf-8').set('content-security-policy', DASHBOARD_CSP).set('cache-control', PUBLIC_PAGE).send(landing);
  });
  router.get(['/dashboard', '/dashboard/'], (_req, res) => {
    res.locals.route = '/dashboard';
    res.type('text/html; charset=utf-8').set('content-security-policy', DASHBOARD_CSP).set('cache-control', PUBLIC_PAGE).send(page);
  });
  router.get('/dashboard/assets/:name', (req: Request, res: Response, next) => {
    const asset = assets[String(req.params.name)];
    if (!asset) return next();
    res.locals.route = '/dashboard/assets';
    // Short cache: the dashboard's own files change with each release of the service.
    res.type(asset.type).set('cache-control', 'public, max-age=300').sendFile(asset.file);
  });
  router.use('/dashboard', (req: Request, res: Response) => {
    res.locals.route = 'unmatched';
    sendError(res, toHttpError(new AppError('NOT_FOUND', `No route ${req.method} ${req.originalUrl.split('?')[0]}`)));
  });
  return router;
}
