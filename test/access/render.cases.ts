import type { EntityManager } from '@mikro-orm/postgresql';
import { Account } from '../../src/modules/account/account.entity';
import { RenderRun } from '../../src/modules/render/render.entity';
import { RENDER_TASK } from '../../src/modules/render/render.service';
import type { AccessCases, Situation } from './registry';
import { target } from './support';

/**
 * A QUEUED run of the account the case acts on, written directly (no job: the matrix runs no
 * worker, and a cancel of a run without a job only marks it). Each case cancels its own run.
 */
async function queuedRunOf(s: Situation): Promise<string> {
  const em = s.t.orm.em.fork() as EntityManager;
  const run = em.create(RenderRun, {
    account: em.getReference(Account, target(s).account.id),
    taskIdentifier: RENDER_TASK,
    payload: { compositionId: 'title-card', inputProps: { title: 'Matrix' }, width: 16, height: 16, fps: 1, durationInFrames: 1, codec: 'h264' },
  });
  await em.flush();
  return run.id;
}

export const cases: AccessCases = {
  // Enqueues a real (tiny) job; no worker runs in the matrix, so it stays QUEUED. The run is the
  // caller's own: no account_id (an unknown key: refused, and the case runs without it).
  'POST /api/video/render': {
    request: () => ({ body: { compositionId: 'title-card', inputProps: { title: 'Matrix' }, width: 16, height: 16, fps: 1, durationInFrames: 1 } }),
  },
  'GET /api/video/compositions': {},
  // The caller's runs, or account_id's (decisions §8).
  'GET /api/tasks/runs': { accountId: true },
  // A run of an account the caller cannot reach answers like a missing one (decisions §1, §8).
  'POST /api/tasks/runs/:runId/cancel': {
    placesIds: true,
    request: async (s) => ({ path: `/api/tasks/runs/${await queuedRunOf(s)}/cancel` }),
    expect: { 'other-org account_id': 404 },
  },
};
