import type { EntityManager } from '@mikro-orm/postgresql';
import { createAccountLoaders } from '../modules/account/account.loaders';
import { createAgentLoaders } from '../modules/agent/agent.loaders';
import { createArtistLoaders } from '../modules/artist/artist.loaders';
import { createCatalogLoaders } from '../modules/catalog/catalog.loaders';
import { createResearchLoaders } from '../modules/research/research.loaders';
import { createRenderLoaders } from '../modules/render/render.loaders';

/** Fresh DataLoaders per request, one factory per module. */
export function createLoaders(em: EntityManager) {
  return {
    ...createAccountLoaders(em),
    ...createAgentLoaders(em),
    ...createArtistLoaders(em),
    ...createCatalogLoaders(em),
    ...createResearchLoaders(em),
    ...createRenderLoaders(em),
  };
}

export type Loaders = ReturnType<typeof createLoaders>;
