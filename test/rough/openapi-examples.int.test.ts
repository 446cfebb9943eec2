import { createTestApp, TestApp } from '../app';
import { as } from '../demo';

type Doc = { paths: Record<string, Record<string, { requestBody?: { content: Record<string, { example?: Record<string, unknown>; schema: { properties: Record<string, Record<string, unknown>> } }> }; responses: Record<string, { content?: Record<string, { example?: { code?: string; status?: string; error?: string } }> }> }>> };

const CODE_OF: Record<string, string> = {
  '400': 'BAD_USER_INPUT', '401': 'UNAUTHENTICATED', '403': 'FORBIDDEN', '404': 'NOT_FOUND', '409': 'CONFLICT', '415': 'UNSUPPORTED_MEDIA_TYPE', '422': 'UNPROCESSABLE_CONTENT',
  '429': 'RATE_LIMITED', '500': 'INTERNAL_SERVER_ERROR', '502': 'PROVIDER_ERROR', '503': 'PROVIDER_UNAVAILABLE', '504': 'PROVIDER_TIMEOUT',
};

/** Swagger "Try it out" fills requests and shows errors from these examples (issue 16). */
describe('OpenAPI examples', () => {
  let t: TestApp;
  let doc: Doc;
  beforeAll(async () => {
    t = await createTestApp();
    doc = (await t.http().get('/api/openapi.json')).body as Doc;
  });
  afterAll(() => t?.close());

  it('lists the compositions as an enum, and the render example works as is', async () => {
    const body = doc.paths['/api/video/render']!.post!.requestBody!.content['application/json']!;
    const compositions = (await t.http().get('/api/video/compositions').set(as.nora)).body.compositions.map((c: { id: string }) => c.id);
    expect(body.schema.properties.compositionId!.enum).toEqual(compositions);
    expect(compositions).toContain(body.example!.compositionId);
    const res = await t.http().post('/api/video/render').set(as.nora).send(body.example!);
    expect(res.status).toBe(200);
    expect(res.body.status).toBe('processing');
  });

  it('an unknown composition is still a 400 naming compositionId', async () => {
    const res = await t.http().post('/api/video/render').set(as.nora).send({ compositionId: 'string' });
    expect(res.status).toBe(400);
    expect(res.body.details[0].field).toBe('compositionId');
  });

  it('each error response shows its own code as the example', () => {
    let seen = 0;
    for (const [path, methods] of Object.entries(doc.paths)) {
      for (const [method, operation] of Object.entries(methods)) {
        for (const [status, response] of Object.entries(operation.responses)) {
          if (Number(status) < 400) continue;
          const example = response.content?.['application/json']?.example;
          expect({ at: `${method} ${path} ${status}`, code: example?.code, status: example?.status }).toEqual({ at: `${method} ${path} ${status}`, code: CODE_OF[status], status: 'error' });
          expect(typeof example?.error).toBe('string');
          seen++;
        }
      }
    }
    expect(seen).toBeGreaterThan(100);
  });
});
