import DataLoader from 'dataloader';
import type { Viewer } from '../../auth/viewer';
import { AgentRepository } from './agent.repository';
import type { AgentTemplateType } from './agent.types';
import type { Db } from '../../db/request-db';

/** A template id asked for by one viewer (loaders live for one request, so one viewer). */
export interface TemplateKey {
  id: string;
  viewer: Viewer;
  adminOrgId: string;
}

export type AgentLoaders = ReturnType<typeof createAgentLoaders>;

export function createAgentLoaders(db: Db) {
  const repo = new AgentRepository(db);
  return {
    /** A template as the viewer sees it, or null when it is absent or not visible to the viewer. */
    visibleTemplateById: new DataLoader<TemplateKey, AgentTemplateType | null, string>(
      async (keys) => {
        const byViewer = new Map<string, TemplateKey[]>();
        for (const k of keys) byViewer.set(k.viewer.accountId, [...(byViewer.get(k.viewer.accountId) ?? []), k]);
        const found = new Map<string, AgentTemplateType>();
        for (const group of byViewer.values()) {
          const { viewer, adminOrgId } = group[0];
          const rows = await repo.visibleTemplates(viewer, adminOrgId, [...new Set(group.map((k) => k.id))]);
          for (const t of rows) found.set(`${viewer.accountId}:${t.id}`, t);
        }
        return keys.map((k) => found.get(`${k.viewer.accountId}:${k.id}`) ?? null);
      },
      { cacheKeyFn: (k) => `${k.viewer.accountId}:${k.id}` },
    ),
  };
}

// The request's loaders (src/request/context.ts) include this module's: the context names no module.
declare module '../../request/context' {
  interface Loaders extends ReturnType<typeof createAgentLoaders> {}
}
