import type { OpenApiDocument } from '../../src/http/rest/openapi';
import type { TestApp } from '../app';
import { as } from '../demo';
import { PARAMS, ROUTES } from '../openapi/examples';
import { asQueryValue, sampleObject, sampleValue } from '../openapi/requests';

type Json = Record<string, unknown>;
interface Operation {
  parameters?: { name: string; in: string; required?: boolean; schema: Json }[];
  requestBody?: { content: { 'application/json': { schema: Json } } };
  security: unknown[];
}

/** A request each route would serve (the OpenAPI suite's examples), for the method and path given. */
export async function validRequest(t: TestApp, doc: OpenApiDocument, method: string, path: string) {
  const op = (doc.paths[path] as Record<string, unknown>)[method.toLowerCase()] as Operation;
  const key = `${method} ${path}`;
  const given = ROUTES[key] ?? {};
  const prepared = given.prepare ? await given.prepare(() => t.http()) : {};
  const example = { ...given, ...prepared, params: { ...given.params, ...prepared.params } };
  let url = path;
  const query: Record<string, string> = {};
  for (const param of op.parameters ?? []) {
    if (param.in === 'path') url = url.replace(`{${param.name}}`, encodeURIComponent(example.params?.[param.name] ?? PARAMS[param.name]!));
    else if (param.in === 'query' && (param.required || example.query?.[param.name] !== undefined)) {
      query[param.name] = example.query?.[param.name] ?? asQueryValue(sampleValue(doc, param.schema));
    }
  }
  const body = op.requestBody ? (example.body ?? sampleObject(doc, op.requestBody.content['application/json'].schema)) : undefined;
  return { url, query, body, credentials: op.security.length ? (example.as ?? as.nora) : {}, bodyProperties: op.requestBody?.content['application/json'].schema };
}
