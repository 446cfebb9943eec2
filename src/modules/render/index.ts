import type { EntityManager } from '@mikro-orm/postgresql';
import type { Orm } from '../../db/orm';
import { withViewer } from '../../graphql/params';
import type { AppModule } from '../module';
import { createRenderLoaders } from './render.loaders';
import { RenderRun } from './render.entity';
import { renders, RenderResolver } from './render.resolver';
import { renderOperations } from './render.operations';
import { RenderRepository } from './render.repository';
import type { RenderRunType } from './render.types';
import { dbOf } from '../../db/request-db';

export const renderModule = {
  name: 'render',
  entities: [RenderRun],
  resolvers: [RenderResolver],
  operations: renderOperations,
  loaders: createRenderLoaders,
  references: {
    RenderRun: { __resolveReference: withViewer(async (ref: { id: string }, ctx, viewer): Promise<RenderRunType | null> => renders(ctx).reference(viewer, ref.id)) },
  },
} satisfies AppModule;

/** What the signed media route asks of runs (src/http/media.ts): it has no request, so each lookup reads on a fresh fork. */
export function renderFiles(orm: Orm) {
  return {
    outputExpiredAt: (runId: string) => new RenderRepository(dbOf(orm.em.fork() as EntityManager)).outputExpiredAt(runId),
  };
}

export { presentRun, runViewOfSnapshot } from './render.service';
/** For the composition root: the process's render runtime (queue, run events, storage, signer, metrics), the worker and its maintenance. */
export { createRenderRuntime } from './render.runtime';
export type { RenderRuntime } from './render.runtime';
export { RenderWorker } from './render.worker';
export { RenderMaintenance } from './render.maintenance';
export { RenderRunsRepository } from './render-runs.repository';
export type { RunChange, RunEvent } from './run-events';
export type { RenderSettings } from './render.service';
export type { RenderRunType } from './render.types';
