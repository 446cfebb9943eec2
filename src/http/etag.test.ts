import express from 'express';
import fc from 'fast-check';
import supertest from 'supertest';
import { weakEtag } from './etag';

/** An app answering the body it is given, with Express's default ETag or with weakEtag. */
function echo(etag?: typeof weakEtag) {
  const app = express();
  if (etag) app.set('etag', etag);
  app.post('/', express.text({ type: () => true }), (req, res) => {
    res.type('text/plain').send(req.body);
  });
  return app;
}

describe('weakEtag', () => {
  const defaults = echo();
  const ours = echo(weakEtag);

  it("is Express's default weak ETag for any body (a client's stored validators still match)", async () => {
    await fc.assert(
      fc.asyncProperty(fc.string({ unit: 'grapheme', maxLength: 2000 }), async (body) => {
        const [a, b] = await Promise.all([supertest(defaults).post('/').send(body), supertest(ours).post('/').send(body)]);
        expect(b.headers.etag).toBe(a.headers.etag);
      }),
      { numRuns: 60 },
    );
    expect(weakEtag(Buffer.alloc(0))).toBe('W/"0-2jmj7l5rSw0yVb/vlWAYkK/YBwk"');
  });

  it('answers 304 to a GET whose If-None-Match is its ETag', async () => {
    const app = express();
    app.set('etag', weakEtag);
    app.get('/', (_req, res) => {
      res.send('x'.repeat(5000));
    });
    const first = await supertest(app).get('/');
    expect(first.headers.etag).toMatch(/^W\/"1388-/);
    expect((await supertest(app).get('/').set('if-none-match', first.headers.etag)).status).toBe(304);
  });
});
