import type { EntityManager } from '@mikro-orm/postgresql';
import { createAccountLoaders } from '../modules/account/account.loaders';
import { createResearchLoaders } from '../modules/research/research.loaders';

/** Fresh DataLoaders per request, one factory per module. */
export function createLoaders(em: EntityManager) {
  return {
    ...createAccountLoaders(em),
    ...createResearchLoaders(em),
  };
}

export type Loaders = ReturnType<typeof createLoaders>;
