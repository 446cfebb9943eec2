import type { NonEmptyArray } from 'type-graphql';
import type { OperationSpecs } from '../common/operations';
import type { Prefetches } from '../graphql/prefetch';
import type { ReferenceResolvers } from '../graphql/schema';
import { accountModule } from './account';
import { authModule } from './auth';
import { agentModule } from './agent';
import { artistModule } from './artist';
import { catalogModule } from './catalog';
import { sessionModule } from './session';
import { researchModule } from './research';
import { renderModule } from './render';
import { webhookModule } from './webhook';
import { usageModule } from './usage';
import type { AppModule } from './module';
import type { Db } from '../db/request-db';

const registry = [accountModule, authModule, artistModule, catalogModule, agentModule, sessionModule, researchModule, renderModule, webhookModule, usageModule] as const;

/** Every domain module; the composition root builds the schema, the REST route table, the ORM and the loaders from this list. */
export const modules: readonly AppModule[] = registry;

/** Every entity, listed explicitly so the same list works from TypeScript (tests) and dist. */
export const entities = modules.flatMap((m) => m.entities);

/** Every resolver class, for the schema. */
// eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
export const resolvers = modules.flatMap((m) => m.resolvers) as NonEmptyArray<Function>;

/** Federation `__resolveReference` of every entity type. */
export const references: ReferenceResolvers = Object.assign({}, ...modules.map((m) => m.references ?? {}));

/** Every relation a module can read ahead, by `Type.field`. */
export const prefetches: Prefetches = Object.assign({}, ...modules.map((m) => m.prefetch ?? {}));

/** Every operation's input schema, by root field. */
export const operations: OperationSpecs = Object.assign({}, ...modules.map((m) => m.operations ?? {}));

type UnionToIntersection<U> = (U extends unknown ? (u: U) => void : never) extends (i: infer I) => void ? I : never;
type LoadersOf<M> = M extends { loaders: (db: Db) => infer L } ? L : never;

/** The request's DataLoaders: every module's, by name. */
export type Loaders = UnionToIntersection<LoadersOf<(typeof registry)[number]>>;

const DB = Symbol('database');
const BUILT = Symbol('loaders built');

interface RequestLoaders {
  [DB]: Db;
  [BUILT]?: object[];
}

/**
 * Every module's loader names as getters that build that module's loaders (its factory, on the
 * request's database) on first use. Made once, from the names the factories answer (they
 * only construct: repositories and DataLoaders, no I/O).
 */
function loadersPrototype(db: Db): object {
  const prototype = {};
  modules.forEach((module, index) => {
    const factory = module.loaders;
    if (!factory) return;
    for (const name of Object.keys(factory(db))) {
      Object.defineProperty(prototype, name, {
        enumerable: true,
        get(this: RequestLoaders) {
          const built = (this[BUILT] ??= []);
          return (built[index] ??= factory(this[DB]))[name as keyof object];
        },
      });
    }
  });
  return prototype;
}

let prototype: object | undefined;

/** Fresh DataLoaders for one request: every module's, each module's made when one of them is first used. */
export function createLoaders(db: Db): Loaders {
  const loaders = Object.create((prototype ??= loadersPrototype(db))) as RequestLoaders;
  loaders[DB] = db;
  return loaders as unknown as Loaders;
}
