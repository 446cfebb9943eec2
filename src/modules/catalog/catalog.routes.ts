import type { RestRoute } from '../../http/rest/route';
import { addCatalogInput, addSongsInput, catalogsInput, catalogSongsInput, removeCatalogsInput, removeSongsInput } from './catalog.inputs';

export const catalogRoutes: RestRoute[] = [
  { operation: 'Query.catalogs', method: 'GET', path: '/catalogs', tags: ['catalogs'], input: catalogsInput },
  { operation: 'Mutation.addCatalog', method: 'POST', path: '/catalogs', tags: ['catalogs'], input: addCatalogInput },
  { operation: 'Mutation.removeCatalogs', method: 'DELETE', path: '/catalogs', tags: ['catalogs'], input: removeCatalogsInput },
  { operation: 'Query.catalogSongs', method: 'GET', path: '/catalogs/songs', tags: ['catalogs'], input: catalogSongsInput },
  { operation: 'Mutation.addCatalogSongs', method: 'POST', path: '/catalogs/songs', tags: ['catalogs'], input: addSongsInput },
  { operation: 'Mutation.removeCatalogSongs', method: 'DELETE', path: '/catalogs/songs', tags: ['catalogs'], input: removeSongsInput },
];
