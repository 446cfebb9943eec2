import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { z } from 'zod';
import { buildPlainSchema } from '../../src/graphql/schema';
import { restFields } from '../../src/http/rest/documents';
import { restFieldName } from '../../src/http/rest/inputs';
import { buildOpenApiDocument, openApiPath, OpenApiDocument } from '../../src/http/rest/openapi';
import { routeTable } from '../../src/http/rest/routes';
import { operations as operationSpecs, resolvers } from '../../src/modules';
import { createTestApp, TestApp } from '../app';
import { as } from '../demo';
import { PARAMS, ROUTES } from './examples';
import { asQueryValue, sampleObject, sampleValue } from './requests';

type Json = Record<string, unknown>;
interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header';
  required?: boolean;
  schema: Json;
}
interface Operation {
  operationId: string;
  description: string;
  parameters?: Parameter[];
  requestBody?: { required: boolean; content: { 'application/json': { schema: Json } } };
  responses: Record<string, { content?: { 'application/json'?: { schema: Json } } }>;
  security: Record<string, string[]>[];
}

const routes = routeTable(operationSpecs);
const METHOD_ORDER = ['get', 'post', 'put', 'patch', 'delete'];

function operations(doc: OpenApiDocument): { method: string; path: string; op: Operation }[] {
  return Object.entries(doc.paths)
    .flatMap(([path, item]) => Object.entries(item).map(([method, op]) => ({ method, path, op: op as unknown as Operation })))
    .sort((a, b) => METHOD_ORDER.indexOf(a.method) - METHOD_ORDER.indexOf(b.method) || a.path.localeCompare(b.path));
}

/** A response validator per documented status, from the document's own schemas (JSON Schema 2020-12). */
function responseValidator(doc: OpenApiDocument) {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajv);
  for (const format of ['int32', 'int64', 'float', 'double']) ajv.addFormat(format, true);
  ajv.addSchema({ $id: 'openapi', components: doc.components });
  return (schema: Json, body: unknown) => {
    const rewritten = JSON.parse(JSON.stringify(schema).replaceAll('"#/components/', '"openapi#/components/'));
    const validate = ajv.compile(rewritten);
    return validate(body) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message}`);
  };
}

describe('OpenAPI document (GET /api/openapi.json)', () => {
  let t: TestApp;
  let doc: OpenApiDocument;
  let check: ReturnType<typeof responseValidator>;

  beforeAll(async () => {
    t = await createTestApp();
    const res = await t.http().get('/api/openapi.json');
    expect(res.status).toBe(200);
    doc = res.body;
    check = responseValidator(doc);
  });
  afterAll(async () => {
    await t.close();
  });

  it('is public and is the document the code builds', async () => {
    expect(doc).toEqual(JSON.parse(JSON.stringify(buildOpenApiDocument(await buildPlainSchema({ resolvers }), routes))));
    expect(doc.openapi).toBe('3.1.0');
  });

  it('is a valid OpenAPI 3.1 document (@seriousme/openapi-schema-validator)', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'openapi-'));
    try {
      const file = join(dir, 'openapi.json');
      await writeFile(file, JSON.stringify(doc));
      // The validator is ESM-only: run its CLI (it prints {valid, errors?} and exits 1 when invalid).
      const cli = require.resolve('@seriousme/openapi-schema-validator/bin/validate-api-cli.js');
      const validate = async () => {
        try {
          return JSON.parse((await promisify(execFile)(process.execPath, [cli, file])).stdout);
        } catch (error) {
          return JSON.parse((error as { stdout: string }).stdout);
        }
      };
      expect(await validate()).toEqual({ valid: true });
      // The validator itself refuses a broken document.
      await writeFile(file, JSON.stringify({ ...doc, info: {} }));
      expect((await validate()).valid).toBe(false);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('documents every route of the route table with its path, method, parameters, bounds and security', async () => {
    const plain = await buildPlainSchema({ resolvers });
    expect(operations(doc)).toHaveLength(routes.length);
    for (const route of routes) {
      const op = doc.paths[openApiPath(route.path)]?.[route.method.toLowerCase()] as unknown as Operation;
      const where = `${route.method} ${route.path}`;
      expect({ where, documented: Boolean(op) }).toEqual({ where, documented: true });
      expect(op.operationId).toBeTruthy();
      expect(op.description).toBeTruthy();
      const [kind, name] = route.operation.split('.') as ['Query' | 'Mutation', string];
      const field = (kind === 'Query' ? plain.getQueryType() : plain.getMutationType())!.getFields()[name]!;
      // The REST fields: the operation's arguments, or the members of its one `input` argument.
      const { fields: args } = restFields(field);
      const params = op.parameters ?? [];
      const bodyProps = (op.requestBody?.content['application/json'].schema.properties ?? {}) as Record<string, Json>;
      // REST names each field by its REST name (src/common/names.ts), a path parameter as its path does.
      const restArgs = args.map((arg) => ({ name: restFieldName(route, arg.name) }));
      for (const arg of restArgs) {
        const inPath = route.path.includes(`:${arg.name}`);
        const param = params.find((p) => p.name === arg.name);
        if (inPath) expect({ where, arg: arg.name, in: param?.in, required: param?.required }).toEqual({ where, arg: arg.name, in: 'path', required: true });
        else if (route.method === 'GET') expect({ where, arg: arg.name, in: param?.in }).toEqual({ where, arg: arg.name, in: 'query' });
        else {
          // Body fields are only in the body (sofa also lists them as query parameters).
          expect({ where, arg: arg.name, inQuery: Boolean(param), inBody: Boolean(bodyProps[arg.name]) }).toEqual({ where, arg: arg.name, inQuery: false, inBody: true });
        }
      }
      // Besides its fields, every POST (and only a POST) documents the Idempotency-Key header.
      const headerParams = params.filter((p) => p.in === 'header');
      expect({ where, headers: headerParams.map((p) => p.name) }).toEqual({ where, headers: route.method === 'POST' ? ['Idempotency-Key'] : [] });
      if (route.method === 'POST' && !route.public) expect({ where, statuses: ['409', '422'].filter((s) => op.responses[s]) }).toEqual({ where, statuses: ['409', '422'] });
      expect(params.filter((p) => p.in !== 'header').every((p) => restArgs.some((a) => a.name === p.name))).toBe(true);
      // Bounds, defaults, enums and patterns of the route's zod input appear on the parameter or body field.
      if (route.input) {
        const json = z.toJSONSchema(route.input, { io: 'input', unrepresentable: 'any' }) as { properties: Record<string, Json> };
        for (const [prop, zodSchema] of Object.entries(json.properties)) {
          expect({ where, prop, isArgument: restArgs.some((a) => a.name === prop) }).toEqual({ where, prop, isArgument: true });
          const documented = params.find((p) => p.name === prop)?.schema ?? bodyProps[prop]!;
          for (const keyword of ['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'minLength', 'maxLength', 'pattern', 'enum', 'default', 'format', 'minItems', 'maxItems']) {
            if (zodSchema[keyword] === undefined) continue;
            let expected = zodSchema[keyword];
            // A GraphQL Int is 32 bits: zod's safe-integer bounds are narrowed to it.
            if (documented.format === 'int32' && keyword === 'maximum') expected = Math.min(expected as number, 2 ** 31 - 1);
            if (documented.format === 'int32' && keyword === 'minimum') expected = Math.max(expected as number, -(2 ** 31));
            expect({ where, prop, keyword, value: documented[keyword] }).toEqual({ where, prop, keyword, value: expected });
          }
        }
      }
      const success = String(route.responseStatus ?? 200);
      expect(op.responses[success]?.content?.['application/json']?.schema).toBeDefined();
      const errorStatuses = Object.keys(op.responses).filter((s) => s !== success);
      for (const status of errorStatuses) expect(op.responses[status]!.content!['application/json']!.schema).toEqual({ $ref: '#/components/schemas/ErrorResponse' });
      if (route.public) expect(op.security).toEqual([]);
      else {
        expect(op.security).toEqual([{ ApiKeyAuth: [] }, { BearerAuth: [] }]);
        expect(errorStatuses).toEqual(expect.arrayContaining(['401']));
      }
      if (args.length) expect(errorStatuses).toContain('400');
    }
    expect(Object.keys(doc.components.securitySchemes).sort()).toEqual(['ApiKeyAuth', 'BearerAuth']);
    expect(doc.components.securitySchemes.ApiKeyAuth).toMatchObject({ type: 'apiKey', in: 'header', name: 'x-api-key' });
    expect(doc.components.securitySchemes.BearerAuth).toMatchObject({ type: 'http', scheme: 'bearer', bearerFormat: 'JWT' });
  });

  it('answers every documented path, built from the document, with a documented status and body', async () => {
    const problems: string[] = [];
    let served = 0;
    for (const { method, path, op } of operations(doc)) {
      const key = `${method.toUpperCase()} ${path}`;
      const given = ROUTES[key] ?? {};
      const prepared = given.prepare ? await given.prepare(() => t.http()) : {};
      const example = { ...given, ...prepared, params: { ...given.params, ...prepared.params } };
      let url = path;
      const query = new URLSearchParams();
      for (const param of op.parameters ?? []) {
        if (param.in === 'path') {
          const value = example.params?.[param.name] ?? PARAMS[param.name];
          if (value === undefined) {
            problems.push(`${key}: no demo value for path parameter ${param.name} (add it to test/openapi/examples.ts)`);
            continue;
          }
          url = url.replace(`{${param.name}}`, encodeURIComponent(value));
        } else if (param.in === 'query' && (param.required || example.query?.[param.name] !== undefined)) {
          const value = example.query?.[param.name] ?? asQueryValue(sampleValue(doc, param.schema));
          for (const item of value.split(',')) query.append(param.name, item);
        }
      }
      const body = op.requestBody ? (example.body ?? sampleObject(doc, op.requestBody.content['application/json'].schema)) : undefined;
      const target = query.size ? `${url}?${query}` : url;
      const send = (headers: Record<string, string>) => {
        const req = t.http()[method as 'get'](target).set(headers);
        return body === undefined ? req : req.send(body);
      };

      const credentials = op.security.length ? (example.as ?? as.nora) : {};
      const res = await send(credentials);
      served++;
      const success = Object.keys(op.responses).find((s) => s.startsWith('2'))!;
      const expected = String(example.status ?? success);
      if (String(res.status) !== expected) problems.push(`${key}: expected ${expected}, got ${res.status} ${JSON.stringify(res.body)}`);
      const declared = op.responses[String(res.status)];
      if (!declared) problems.push(`${key}: answered ${res.status}, which the document does not declare`);
      else {
        const errors = check(declared.content!['application/json']!.schema, res.body);
        if (errors.length) problems.push(`${key} ${res.status}: body does not match its schema: ${errors.join('; ')}`);
      }

      if (op.security.length) {
        const anon = await send({});
        if (anon.status !== 401) problems.push(`${key}: without credentials answered ${anon.status}, not 401`);
        else if (check(op.responses['401']!.content!['application/json']!.schema, anon.body).length) problems.push(`${key}: 401 body does not match ErrorResponse`);
      }

      const requiredBody = (op.requestBody?.content['application/json'].schema.required ?? []) as string[];
      const requiredQuery = (op.parameters ?? []).filter((p) => p.in === 'query' && p.required).map((p) => p.name);
      if (requiredBody.length || requiredQuery.length) {
        const bare = t.http()[method as 'get'](url).set(credentials);
        const invalid = await (op.requestBody ? bare.send({}) : bare);
        const missing = [...requiredBody, ...requiredQuery].sort();
        if (invalid.status !== 400) problems.push(`${key}: without its required input answered ${invalid.status}, not 400`);
        else {
          if (check(op.responses['400']!.content!['application/json']!.schema, invalid.body).length) problems.push(`${key}: 400 body does not match ErrorResponse`);
          const named = (invalid.body.details ?? []).map((d: { field: string }) => d.field);
          for (const field of missing) if (!named.includes(field)) problems.push(`${key}: the 400 does not name missing ${field}`);
        }
      }
    }
    expect(problems).toEqual([]);
    expect(served).toBe(routes.length);
  });

  it('rejects a response that does not match its schema (the check can fail)', () => {
    const me = (doc.paths['/api/accounts/me']!.get as unknown as Operation).responses['200']!.content!['application/json']!.schema;
    expect(check(me, { status: 'success', account: { id: 'x', name: 'n', kind: 'person', organizations: [], invitations: [], email: null } })).toEqual([]);
    expect(check(me, { status: 'success', account: { id: 'x', kind: 'robot', organizations: [] } }).length).toBeGreaterThan(0);
  });
});
