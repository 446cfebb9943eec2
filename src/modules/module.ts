import type { ReferenceResolvers } from '../graphql/schema';
import type { RestRoute } from '../http/rest/route';

/** What each domain folder contributes to the app. */
export interface AppModule {
  name: string;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  entities: any[];
  // eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
  resolvers: Function[];
  routes: RestRoute[];
  /** Federation: `__resolveReference` per entity type this module owns (batched through loaders). */
  references?: ReferenceResolvers;
}
