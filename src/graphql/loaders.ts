import type { EntityManager } from '@mikro-orm/postgresql';
import { createAccountLoaders } from '../modules/account/account.loaders';
import { createRenderLoaders } from '../modules/render/render.loaders';

/** Fresh DataLoaders per request, one factory per module. */
export function createLoaders(em: EntityManager) {
  return {
    ...createAccountLoaders(em),
    ...createRenderLoaders(em),
  };
}

export type Loaders = ReturnType<typeof createLoaders>;
