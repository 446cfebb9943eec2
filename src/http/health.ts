import { Router } from 'express';
import type { Orm } from '../db/orm';
import { pendingMigrations } from '../db/orm';
import type { FfmpegStatus } from '../jobs/encoder';
import type { RenderStorage } from '../jobs/storage';

/**
 * /healthz: the process is up. /readyz: the database answers, every migration is applied, and
 * a remote render storage (S3 bucket) can be used; it also says which ffmpeg renders use (its
 * source and version: informational, an API instance without ffmpeg is still ready).
 */
export function healthRouter(orm: Orm, storage?: Pick<RenderStorage, 'ready'>, ffmpeg?: () => Promise<FfmpegStatus>): Router {
  const router = Router();
  router.get('/healthz', (_req, res) => {
    res.locals.route = '/healthz';
    res.json({ status: 'ok' });
  });
  router.get('/readyz', async (_req, res) => {
    res.locals.route = '/readyz';
    // Both probes at once: a slow bucket does not delay the database's answer.
    const storageCheck = storage?.ready?.().then(() => 'up' as const, () => 'down' as const);
    try {
      await orm.em.getConnection().execute('select 1');
      const pending = await pendingMigrations(orm);
      if (pending.length) {
        res.status(503).json({ status: 'error', database: 'up', migrations: 'pending', pending });
        return;
      }
    } catch {
      res.status(503).set('Retry-After', '5').json({ status: 'error', database: 'down' });
      return;
    }
    const bucket = await storageCheck;
    if (bucket === 'down') {
      res.status(503).set('Retry-After', '5').json({ status: 'error', database: 'up', migrations: 'applied', storage: 'down' });
      return;
    }
    res.json({ status: 'ok', database: 'up', migrations: 'applied', ...(bucket ? { storage: bucket } : {}), ...(ffmpeg ? { ffmpeg: await ffmpeg() } : {}) });
  });
  return router;
}
