import { ApolloServer, HeaderMap } from '@apollo/server';
import type { GatewayInterface } from '@apollo/server-gateway-interface';
import { GraphQLObjectType, GraphQLSchema, GraphQLString } from 'graphql';
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { boundedAnswer, compiledExecution, stringifyAnswer } from './executor';

const run = promisify(execFile);

const schema = new GraphQLSchema({
  query: new GraphQLObjectType({
    name: 'Query',
    fields: {
      ok: { type: GraphQLString, resolve: () => 'fine' },
      // Text JSON escapes: quotes, a backslash, a control character, a line separator, an emoji.
      odd: { type: GraphQLString, resolve: () => 'say "hi"\\ \u0001 \u2028 🎵 ü' },
      // An error that is no GraphQLError and carries no extensions (a bug, a driver's error).
      boom: { type: GraphQLString, resolve: () => { throw new TypeError('cannot read properties of undefined'); } },
    },
  }),
});

/** One answer of `query` from an Apollo server running the executor; compileAfter 0: compiled from the first run. */
async function answer(compileAfter: number, query: string) {
  const server = new ApolloServer({ gateway: compiledExecution(schema, { compileAfter, compiledMax: 10 }), includeStacktraceInErrorResponses: false });
  await server.start();
  try {
    const response = await server.executeOperation({ query });
    if (response.body.kind !== 'single') throw new Error('expected a single answer');
    return JSON.parse(JSON.stringify(response.body.singleResult));
  } finally {
    await server.stop();
  }
}

describe('compiled execution', () => {
  it("leaves each operation's context to the young generation: 3,000 operations with 8 KB contexts grow the old generation by far less than they weigh", async () => {
    // Apollo's request context for the gateway interface (the executor's way in) had its own status
    // accessors, closures over the request: every operation's context, rows and answer reached the
    // old generation, where only a full mark-compact frees them (issue 31: 4.4 MB a young collection
    // on a GraphQL songs page, a mark-compact every few seconds at 30 requests a second).
    // patches/@apollo+server+*.patch moves them to a class; without it this grows 35-78 MB, with it
    // 1.0-2.3 MB (Node 20 and 24). In a process of its own (test/support/gateway-promotion-probe.ts).
    const root = join(__dirname, '..', '..');
    const { stdout } = await run(process.execPath, ['-r', join(root, 'test', 'support', 'swc-register.js'), join(root, 'test', 'support', 'gateway-promotion-probe.ts')], {
      cwd: root,
      timeout: 50_000,
    });
    const { grown, answered } = JSON.parse(stdout) as { grown: number; answered: number };
    expect(answered).toBe(3000);
    expect(grown).toBeLessThan(8_000_000);
  });

  it("sends the HTTP status an executor sets on the gateway request's response", async () => {
    const gateway: GatewayInterface = {
      onSchemaLoadOrUpdate: (callback) => {
        callback({ apiSchema: schema, coreSupergraphSdl: '' });
        return () => undefined;
      },
      load: async () => ({
        executor: async (request) => {
          const http = request.response!.http!;
          expect(http.status).toBeUndefined();
          http.status = 202;
          http.headers.set('x-probe', String(http.status));
          return { data: { ok: 'fine' } };
        },
      }),
      stop: async () => undefined,
    };
    const server = new ApolloServer({ gateway });
    await server.start();
    try {
      const response = await server.executeOperation({ query: '{ ok }' });
      expect(response.http.status).toBe(202);
      expect(response.http.headers.get('x-probe')).toBe('202');
    } finally {
      await server.stop();
    }
  });

  it('answers a resolver error that carries no extensions as graphql-js does', async () => {
    const interpreted = await answer(1000, '{ ok boom }');
    const compiled = await answer(0, '{ ok boom }');
    expect(interpreted.data).toEqual({ ok: 'fine', boom: null });
    expect(interpreted.errors[0]).toMatchObject({ message: 'cannot read properties of undefined', path: ['boom'], extensions: { code: 'INTERNAL_SERVER_ERROR' } });
    expect(compiled).toEqual(interpreted);
  });
});

/** The body Apollo sends over HTTP for `query`: with its own serialization, or with stringifyAnswer. */
async function httpBody(query: string, ours: boolean): Promise<string> {
  const server = new ApolloServer({
    gateway: compiledExecution(schema, { compileAfter: 0, compiledMax: 10, maxResponseBytes: 1_000_000 }),
    includeStacktraceInErrorResponses: false,
    ...(ours ? { stringifyResult: stringifyAnswer } : {}),
    // A plugin adding extensions after the executor, as the rate limit's cost extension does.
    plugins: [{ requestDidStart: async () => ({ willSendResponse: async ({ response }) => {
      if (response.body.kind === 'single') response.body.singleResult.extensions = { cost: { requested: 2, settled: 1 } };
    } }) }],
  });
  await server.start();
  try {
    const headers = new HeaderMap([['content-type', 'application/json']]);
    const response = await server.executeHTTPGraphQLRequest({ httpGraphQLRequest: { method: 'POST', headers, search: '', body: { query } }, context: async () => ({}) });
    if (response.body.kind !== 'complete') throw new Error('expected a complete body');
    return response.body.string;
  } finally {
    await server.stop();
  }
}

describe('answers serialized once (stringifyAnswer)', () => {
  it('sends the bytes Apollo sends, data, errors and extensions alike', async () => {
    for (const query of ['{ ok odd }', '{ ok boom odd }']) {
      const ours = await httpBody(query, true);
      expect(ours).toBe(await httpBody(query, false));
      expect(JSON.parse(ours).data.odd).toBe('say "hi"\\ \u0001 \u2028 🎵 ü');
    }
  });

  it('writes an answer as JSON.stringify does, whether or not the bound measured it', () => {
    const measured = { data: { a: [1, { b: 'x\n"' }], c: null, gone: undefined }, extensions: undefined };
    expect(boundedAnswer(measured, 1000)).toBe(measured);
    expect(stringifyAnswer({ errors: [{ message: 'm' }], data: measured.data, extensions: { n: 1 } })).toBe(`${JSON.stringify({ errors: [{ message: 'm' }], data: measured.data, extensions: { n: 1 } })}\n`);
    // Data measured, then replaced by other data: the other data's own JSON.
    expect(stringifyAnswer({ data: { a: 2 } })).toBe('{"data":{"a":2}}\n');
    expect(stringifyAnswer({ data: null })).toBe('{"data":null}\n');
  });

  it('still refuses an answer past the bound, naming its size', () => {
    const big = { data: { text: 'x'.repeat(100) } };
    const refused = boundedAnswer(big, 50) as { errors: { message: string }[] };
    expect(refused.errors[0].message).toBe(`The answer is ${JSON.stringify(big).length} bytes, more than the maximum of 50: ask for fewer fields or items, or split the operation`);
  });
});
