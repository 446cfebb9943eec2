import type { OperationSpecs } from '../../common/operations';
import { addCatalogInput, addSongsInput, catalogsInput, catalogSongsInput, removeCatalogsInput, removeSongsInput } from './catalog.inputs';

/** The zod schema each operation's input is parsed with (its resolver validates with the same one), by root field. */
export const catalogOperations: OperationSpecs = {
  'Query.catalogs': { input: catalogsInput },
  'Mutation.addCatalog': { input: addCatalogInput },
  'Mutation.removeCatalogs': { input: removeCatalogsInput },
  'Query.catalogSongs': { input: catalogSongsInput },
  'Mutation.addCatalogSongs': { input: addSongsInput },
  'Mutation.removeCatalogSongs': { input: removeSongsInput },
};
