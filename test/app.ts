import 'reflect-metadata';
import { DocumentNode, print } from 'graphql';
import supertest from 'supertest';
import { App, createApp } from '../src/app';
import { createLogger } from '../src/common/logger';
import { Config, loadConfig } from '../src/config/config';
import { initOrm, Orm } from '../src/db/orm';
import { entities } from '../src/modules';
import { seedDemo } from '../src/db/seeders/demo.seeder';
import { AppDeps, createDeps } from '../src/deps';
import { ProviderMode, startProviderMode } from '../src/providers/provider-mode';
import { createTestDatabase, TestDatabase } from './db';
import { TEST_ROUTER_SECRET } from './demo';
import { SqlCounter } from './sql-counter';

/** The Accept header of a client that wants GraphQL over HTTP's statuses (4xx/5xx for an answer without data). */
export const GRAPHQL_RESPONSE_JSON = { accept: 'application/graphql-response+json' } as const;

/**
 * A GraphQL answer but for the budget left in its extensions.cost, which each request spends, and the
 * seconds until its window refills, which the clock moves between two requests: two answers to compare.
 */
export const withoutBudgetLeft = (body: { extensions?: { cost?: { throttleStatus?: object } } }) =>
  body.extensions?.cost?.throttleStatus
    ? { ...body, extensions: { ...body.extensions, cost: { ...body.extensions.cost, throttleStatus: { ...body.extensions.cost.throttleStatus, currentlyAvailable: 'spent', resetAfter: 'moving' } } } }
    : body;

export interface TestApp {
  app: App;
  deps: AppDeps;
  orm: Orm;
  config: Config;
  db: TestDatabase;
  sql: SqlCounter;
  /** PROVIDERS as main.ts applies it (with PROVIDERS=sandbox: the running sandbox upstreams). */
  providerMode: ProviderMode;
  http(): supertest.Agent;
  /**
   * POST /graphql with the given credentials headers, accepting application/graphql-response+json
   * as the SDK does (an answer without data then has its code's status; pass another `accept` to
   * see the application/json answer, always 200).
   */
  graphql(query: string | DocumentNode, variables?: Record<string, unknown>, headers?: Record<string, string>): Promise<supertest.Response>;
  close(): Promise<void>;
}

export interface TestAppOptions {
  env?: Record<string, string>;
  /** Load the demo data set (default true). */
  seed?: boolean;
  /**
   * Every charge one statement (RATE_LIMIT_LEASE_MAX=0) instead of production's leases, where a charge
   * takes points from a lease an earlier request took (no statement) or takes a lease (one): for a
   * test that counts a request's statements, whose count would otherwise depend on what ran before.
   */
  deterministicBudgets?: boolean;
}

/** The real app on a database of its own; no port is opened until a test needs one. */
export async function createTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  const db = await createTestDatabase();
  // Suites drive one demo account far harder than any client: budgets are raised unless a test sets them.
  // Everything else is production's defaults: charges from leases (RATE_LIMIT_LEASE_MAX), and an
  // operation compiled by graphql-jit once its document comes back (GRAPHQL_COMPILE_AFTER).
  const budgets = { RATE_LIMIT_PER_MINUTE: '1000000', RESEARCH_RATE_LIMIT_PER_MINUTE: '1000000', ...(options.deterministicBudgets ? { RATE_LIMIT_LEASE_MAX: '0' } : {}) };
  const loaded = loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', DATABASE_URL: db.url, ROUTER_SECRET: TEST_ROUTER_SECRET, ...budgets, ...options.env });
  const logger = createLogger(process.env.TEST_LOG_LEVEL ?? 'silent');
  const providerMode = await startProviderMode(loaded, logger);
  const config = providerMode.config;
  const orm = await initOrm({ url: db.url, poolMax: 5, entities, statementTimeoutMs: config.database.statementTimeoutMs });
  if (options.seed !== false) await seedDemo(orm, config);
  const deps = createDeps(config, orm, logger);
  const app = await createApp(deps);
  const sql = new SqlCounter(orm);
  return {
    app,
    deps,
    orm,
    config,
    db,
    sql,
    providerMode,
    http: () => supertest.agent(app.server),
    graphql: (query, variables, headers = {}) =>
      supertest(app.server).post('/graphql').set('content-type', 'application/json').set(GRAPHQL_RESPONSE_JSON).set(headers).send({ query: typeof query === 'string' ? query : print(query), variables }),
    async close() {
      await app.stop();
      await providerMode.close();
      await orm.close(true);
      await db.drop();
    },
  };
}
