import DataLoader from 'dataloader';
import type { Viewer } from '../../auth/viewer';
import { RenderRepository, RenderStore, RunView } from './render.repository';
import type { Db } from '../../db/request-db';

/** A run asked for on behalf of a viewer. */
export interface RunKey {
  viewer: Viewer;
  id: string;
}

/**
 * Runs by id as the viewer may see them: null when absent or out of the viewer's reach. The loads
 * of one tick (the representations of one `_entities` request) share one statement per viewer.
 */
export function reachableRunLoader(repo: Pick<RenderStore, 'reachableRuns'>): DataLoader<RunKey, RunView | null, string> {
  return new DataLoader<RunKey, RunView | null, string>(
    async (keys) => {
      const byViewer = new Map<string, RunKey[]>();
      for (const key of keys) byViewer.set(key.viewer.accountId, [...(byViewer.get(key.viewer.accountId) ?? []), key]);
      const found = new Map<string, RunView>();
      for (const [viewerId, asked] of byViewer) {
        for (const run of await repo.reachableRuns(asked[0].viewer, asked.map((k) => k.id))) found.set(`${viewerId}:${run.id}`, run);
      }
      return keys.map((k) => found.get(`${k.viewer.accountId}:${k.id}`) ?? null);
    },
    { cacheKeyFn: (k) => `${k.viewer.accountId}:${k.id}` },
  );
}

export function createRenderLoaders(db: Db) {
  const repo = new RenderRepository(db);
  return {
    reachableRunById: reachableRunLoader(repo),
  };
}

export type RenderLoaders = ReturnType<typeof createRenderLoaders>;

// The request's loaders (src/request/context.ts) include this module's: the context names no module.
declare module '../../request/context' {
  interface Loaders extends ReturnType<typeof createRenderLoaders> {}
}
