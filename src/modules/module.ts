import type { OperationSpecs } from '../common/operations';
import type { Prefetches } from '../graphql/prefetch';
import type { ReferenceResolvers } from '../graphql/schema';
import type { Db } from '../db/request-db';

/** What each domain folder contributes to the app; the composition root hands the parts to the infrastructure. */
export interface AppModule {
  name: string;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  entities: any[];
  // eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
  resolvers: Function[];
  /** How the module's operations parse their input; the REST route table and the OpenAPI document take it from here. */
  operations?: OperationSpecs;
  /** The module's DataLoaders, made fresh for every request on its database. */
  loaders?: (db: Db) => object;
  /** Federation: `__resolveReference` per entity type this module owns (batched through loaders). */
  references?: ReferenceResolvers;
  /** Relations (`Type.field`) this module can read ahead inside a parent list's statement (graphql/prefetch.ts). */
  prefetch?: Prefetches;
}
