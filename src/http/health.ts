import { Router } from 'express';
import type { Orm } from '../db/orm';
import { pendingMigrations } from '../db/orm';

/** /healthz: the process is up. /readyz: the database answers and every migration is applied. */
export function healthRouter(orm: Orm): Router {
  const router = Router();
  router.get('/healthz', (_req, res) => {
    res.locals.route = '/healthz';
    res.json({ status: 'ok' });
  });
  router.get('/readyz', async (_req, res) => {
    res.locals.route = '/readyz';
    try {
      await orm.em.getConnection().execute('select 1');
      const pending = await pendingMigrations(orm);
      if (pending.length) {
        res.status(503).json({ status: 'error', database: 'up', migrations: 'pending', pending });
        return;
      }
      res.json({ status: 'ok', database: 'up', migrations: 'applied' });
    } catch {
      res.status(503).set('Retry-After', '5').json({ status: 'error', database: 'down' });
    }
  });
  return router;
}
