import type { EntityManager } from '@mikro-orm/postgresql';
import { createAccountLoaders } from '../modules/account/account.loaders';

/** Fresh DataLoaders per request, one factory per module. */
export function createLoaders(em: EntityManager) {
  return {
    ...createAccountLoaders(em),
  };
}

export type Loaders = ReturnType<typeof createLoaders>;
