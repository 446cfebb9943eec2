import { composeServices } from '@apollo/composition';
import { ApolloGateway, LocalGraphQLDataSource, RemoteGraphQLDataSource } from '@apollo/gateway';
import { ApolloServer } from '@apollo/server';
import { parse } from 'graphql';
import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { createTestApp, TestApp } from '../app';
import { TEST_ROUTER_SECRET } from '../demo';
import { notesData, notesSchema, notesTypeDefs, noteFieldName } from './notes.subgraph';
import { TARGETS } from './targets';

const SECRET = TEST_ROUTER_SECRET;
const SUBGRAPH_SDL = readFileSync(join(__dirname, '..', '..', 'schema', 'subgraph.graphql'), 'utf8');

interface GatewayContext {
  credentials: Record<string, string>;
}
type GraphQLAnswer = { data?: Record<string, unknown> | null; errors?: { message: string; extensions?: Record<string, unknown> }[] };

function compose(musicUrl: string) {
  return composeServices([
    { name: 'music', typeDefs: parse(SUBGRAPH_SDL), url: musicUrl },
    { name: 'notes', typeDefs: parse(notesTypeDefs()), url: 'http://notes.local/graphql' },
  ]);
}

/** A gateway over a static supergraph: the notes subgraph in process, this service over HTTP. */
async function startGateway(supergraphSdl: string, routerSecret: string) {
  const gateway = new ApolloGateway({
    supergraphSdl,
    buildService: ({ name, url }) => {
      if (name === 'notes') return new LocalGraphQLDataSource(notesSchema());
      return new RemoteGraphQLDataSource<GatewayContext>({
        url,
        willSendRequest({ request, context }) {
          // The router forwards the caller's credentials and adds its shared secret.
          for (const [header, value] of Object.entries((context as GatewayContext).credentials ?? {})) request.http?.headers.set(header, String(value));
          request.http?.headers.set('x-router-secret', routerSecret);
        },
      });
    },
  });
  const server = new ApolloServer<GatewayContext>({ gateway });
  await server.start();
  return {
    async query(query: string, credentials: Record<string, string> = {}): Promise<GraphQLAnswer> {
      const res = await server.executeOperation({ query }, { contextValue: { credentials } });
      if (res.body.kind !== 'single') throw new Error('unexpected incremental answer');
      return res.body.singleResult as GraphQLAnswer;
    },
    stop: () => server.stop(),
  };
}

const notesQuery = `{ notes { id text ${TARGETS.map((t) => `${noteFieldName(t)} { ${t.fields} }`).join(' ')} } }`;

describe('federation: composed with another subgraph, served through @apollo/gateway', () => {
  let t: TestApp;
  let url: string;
  let gateway: Awaited<ReturnType<typeof startGateway>>;
  let supergraphSdl: string;

  beforeAll(async () => {
    t = await createTestApp();
    await new Promise<void>((resolve) => t.app.server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}/graphql`;
    const composed = compose(url);
    expect(composed.errors ?? []).toEqual([]);
    supergraphSdl = composed.supergraphSdl!;
    gateway = await startGateway(supergraphSdl, SECRET);
  });
  afterAll(async () => {
    await gateway?.stop();
    await t.close();
  });

  it('composes schema/subgraph.graphql with a subgraph that extends its entities', () => {
    for (const target of TARGETS) {
      expect(SUBGRAPH_SDL).toMatch(new RegExp(`type ${target.typeName} @key\\(fields: "${target.key}"\\)`));
      expect(supergraphSdl).toMatch(new RegExp(`type ${target.typeName}\\s[^{]*@join__type\\(graph: MUSIC, key: "${target.key}"\\)[^{]*@join__type\\(graph: NOTES, key: "${target.key}"\\)`));
    }
  });

  it('resolves this service’s entities for the other subgraph, with the caller’s access rules', async () => {
    for (const [i, target] of TARGETS.entries()) {
      const answer = await gateway.query(notesQuery, target.caller);
      expect(answer.errors).toBeUndefined();
      const notes = answer.data!.notes as Record<string, unknown>[];
      expect(notes).toHaveLength(notesData().length);
      const field = noteFieldName(target);
      // The entity the caller may see comes back with this service's fields; another one like a missing one.
      expect(notes.find((n) => n.id === `n${i}-visible`)![field]).toEqual(target.expected);
      expect(notes.find((n) => n.id === `n${i}-hidden`)![field]).toBeNull();
    }
  });

  it('adds the other subgraph’s fields to this service’s root query answers', async () => {
    for (const target of TARGETS) {
      const answer = await gateway.query(target.rootQuery, target.caller);
      expect(answer.errors).toBeUndefined();
      let list: unknown = answer.data;
      for (const step of target.rootListPath) list = (list as Record<string, unknown>)[step];
      const items = (Array.isArray(list) ? list : [list]) as Record<string, unknown>[];
      const visible = items.find((item) => item[target.key] === target.visible);
      expect(visible).toMatchObject({ notes: [{ text: `about ${target.typeName} ${target.visible}` }] });
    }
  });

  it('refuses entities to a caller without credentials (the router forwards none)', async () => {
    const answer = await gateway.query(notesQuery, {});
    expect(answer.errors?.map((e) => e.extensions?.code)).toContain('UNAUTHENTICATED');
    for (const note of answer.data?.notes as Record<string, unknown>[]) {
      for (const target of TARGETS) expect(note[noteFieldName(target)] ?? null).toBeNull();
    }
  });

  it('refuses a router without the shared secret', async () => {
    const wrong = await startGateway(supergraphSdl, 'not-the-router-secret-000');
    try {
      const answer = await wrong.query(notesQuery, TARGETS[0]!.caller);
      expect(answer.errors?.map((e) => e.extensions?.code)).toContain('FORBIDDEN');
    } finally {
      await wrong.stop();
    }
  });

  describe('_service and _entities over HTTP', () => {
    const entities = (typeName: string, reps: Record<string, unknown>[], fields: string) =>
      `{ _entities(representations: ${JSON.stringify(reps).replace(/"(\w+)":/g, '$1:')}) { ... on ${typeName} { ${fields} } } }`;

    it('answer only with the router secret, whatever the alias', async () => {
      const target = TARGETS[0]!;
      const refused = [
        await t.graphql('{ _service { sdl } }', {}, target.caller),
        await t.graphql('{ s: _service { sdl } }', {}, { 'x-router-secret': 'wrong' }),
        await t.graphql(entities(target.typeName, [{ __typename: target.typeName, [target.key]: target.visible }], target.fields), {}, { ...target.caller, 'x-router-secret': `${SECRET}x` }),
      ];
      for (const res of refused) {
        expect(res.body.data ?? null).toBeNull();
        expect(res.body.errors[0].extensions.code).toBe('FORBIDDEN');
        expect(res.body.errors[0].message).toContain('x-router-secret');
      }
      const sdl = await t.graphql('{ _service { sdl } }', {}, { 'x-router-secret': SECRET });
      expect(sdl.body.data._service.sdl).toContain(`@key(fields: "${target.key}")`);
    });

    it('resolve references in one batch, null for what the caller may not see', async () => {
      for (const target of TARGETS) {
        const rep = (key: string) => ({ __typename: target.typeName, [target.key]: key });
        const headers = { ...target.caller, 'x-router-secret': SECRET };
        const two = await t.sql.measure(() => t.graphql(entities(target.typeName, [rep(target.visible), rep(target.hidden)], target.fields), {}, headers));
        const reps = [target.visible, target.hidden, 'not-a-key', target.visible, target.hidden].map(rep);
        const five = await t.sql.measure(() => t.graphql(entities(target.typeName, reps, target.fields), {}, headers));
        expect(two.result.body).toEqual({ data: { _entities: [target.expected, null] }, extensions: { cost: expect.any(Object) } });
        expect(five.result.body).toEqual({ data: { _entities: [target.expected, null, null, target.expected, null] }, extensions: { cost: expect.any(Object) } });
        expect(five.count).toBe(two.count);
      }
    });
  });
});

describe('federation without ROUTER_SECRET configured', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ seed: false, env: { ROUTER_SECRET: '' } });
  });
  afterAll(async () => {
    await t.close();
  });

  it('refuses _service and _entities to everyone', async () => {
    for (const secret of ['', 'anything-at-all-0000']) {
      const res = await t.graphql('{ _service { sdl } }', {}, secret ? { 'x-router-secret': secret } : {});
      expect(res.body.errors[0].extensions.code).toBe('FORBIDDEN');
    }
  });
});
