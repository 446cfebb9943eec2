import type { GatewayExecutionResult, GatewayGraphQLRequestContext } from '@apollo/server-gateway-interface';
import fc from 'fast-check';
import { DocumentNode, getOperationAST, GraphQLSchema, parse, validate } from 'graphql';
import { createContext } from '../../src/request/context';
import { compiledExecution } from '../../src/graphql/executor';
import { buildFederatedSchema, buildPlainSchema } from '../../src/graphql/schema';
import { references, resolvers } from '../../src/modules';
import { createTestApp, TestApp } from '../app';
import { as } from '../demo';

/**
 * Issue 30 finding 6: graphql-jit built answers on plain objects, so an alias such as `__proto__`
 * was dropped from compiled answers while graphql-js kept it. Property: for generated documents
 * over a small part of the schema, with aliases drawn from Object.prototype's names and ordinary
 * ones, the executor Apollo runs answers exactly as graphql-js does, compiled or not (fixed seed;
 * COMPILED_ALIASES_RUNS for a longer run).
 */
const RUNS = Number(process.env.COMPILED_ALIASES_RUNS ?? 150);
const SEED = 20261126;
const ALIASES = ['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf', 'isPrototypeOf', '__defineGetter__', 'a', 'b', 'name', 'id', 'me'];

/** Fields of the part of the schema the documents use: a scalar (null), or the type it selects into. */
const FIELDS: Record<string, Record<string, string | null>> = {
  Query: { me: 'AccountProfile', __typename: null },
  AccountProfile: { id: null, name: null, kind: null, email: null, organizations: 'Organization', __typename: null },
  Organization: { id: null, name: null, created_at: null, __typename: null },
};

type Selection = { alias: string | null; field: string; below: Selection[] };

function selections(type: string, depth: number): fc.Arbitrary<Selection[]> {
  const fields = Object.keys(FIELDS[type]!).filter((field) => depth > 0 || FIELDS[type]![field] === null);
  const one: fc.Arbitrary<Selection> = fc
    .record({ alias: fc.option(fc.constantFrom(...ALIASES), { nil: null }), field: fc.constantFrom(...fields) })
    .chain(({ alias, field }) => {
      const child = FIELDS[type]![field];
      return (child ? selections(child, depth - 1) : fc.constant<Selection[]>([])).map((below) => ({ alias, field, below }));
    });
  return fc.array(one, { minLength: 1, maxLength: 4 });
}

const print = (set: Selection[]): string =>
  set.map(({ alias, field, below }) => `${alias ? `${alias}: ` : ''}${field}${below.length ? ` { ${print(below)} }` : ''}`).join(' ');

describe('compiled and interpreted answers are the same for every alias (fast-check)', () => {
  let t: TestApp;
  let schema: GraphQLSchema;
  type Run = (request: GatewayGraphQLRequestContext) => Promise<GatewayExecutionResult>;
  let compiled: Run;
  let interpreted: Run;

  beforeAll(async () => {
    t = await createTestApp();
    // The schema Apollo runs (the subgraph one), under the executor Apollo is given.
    schema = buildFederatedSchema(await buildPlainSchema({ resolvers }), references);
    compiled = (await compiledExecution(schema, { compileAfter: 0, compiledMax: 10_000 }).load({} as never)).executor as Run;
    interpreted = (await compiledExecution(schema, { compileAfter: 0, compiledMax: 0 }).load({} as never)).executor as Run;
  });
  afterAll(() => t?.close());

  const run = async (executor: Run, document: DocumentNode) => {
    const context = await createContext(t.deps, { credentials: { apiKey: as.nora['x-api-key'] } });
    const request = { document, request: { variables: {} }, context, operationName: null, operation: getOperationAST(document) } as unknown as GatewayGraphQLRequestContext;
    return JSON.stringify(await executor(request));
  };

  it(`${RUNS} generated documents answer the same compiled and on graphql-js`, async () => {
    let checked = 0;
    await fc.assert(
      fc.asyncProperty(selections('Query', 2), async (set) => {
        const document = parse(`{ ${print(set)} }`);
        // Aliases that clash (`a: id a: name`) are refused by validation before any executor runs.
        fc.pre(validate(schema, document).length === 0);
        checked += 1;
        expect(await run(compiled, document)).toBe(await run(interpreted, document));
      }),
      { seed: SEED, numRuns: RUNS },
    );
    // Most documents are valid: the property is not vacuous.
    expect(checked).toBeGreaterThan(RUNS / 3);
  });

  it('over HTTP too: `__proto__` and `constructor` aliases are in the answer, run after run', async () => {
    const query = '{ __proto__: __typename me { constructor: name toString: id } }';
    for (let i = 0; i < 2; i += 1) {
      const res = await t.graphql(query, undefined, as.nora);
      expect(res.status).toBe(200);
      expect(res.text.trim()).toMatch(/^\{"data":\{"__proto__":"Query","me":\{"constructor":"[^"]+","toString":"[^"]+"\}\},"extensions":\{"cost":\{[^{}]*"throttleStatus":\{[^{}]*\}\}\}\}$/);
    }
  });
});
