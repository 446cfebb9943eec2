import type { EntityManager } from '@mikro-orm/postgresql';
import DataLoader from 'dataloader';
import { RenderRun } from './render.entity';

export function createRenderLoaders(em: EntityManager) {
  return {
    renderRunById: new DataLoader<string, RenderRun | null>(async (ids) => {
      const rows = await em.find(RenderRun, { id: { $in: [...ids] } });
      const byId = new Map(rows.map((r) => [r.id, r]));
      return ids.map((id) => byId.get(id) ?? null);
    }),
  };
}
