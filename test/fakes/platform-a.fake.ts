import { FakeReply, FakeServer, FakeTokens, RecordedRequest } from './fake-server';

export const FAKE_CLIENT_ID = 'fake-client';
export const FAKE_CLIENT_SECRET = 'fake-secret';

/**
 * The streaming platform's accounts service (POST /api/token, client credentials with Basic auth)
 * and Web API search (GET /v1/search with Bearer), on one local server.
 */
export function platformAFake(tokens = new FakeTokens()) {
  const server = new FakeServer((req: RecordedRequest): FakeReply => {
    if (req.method === 'POST' && req.path === '/api/token') {
      const basic = Buffer.from(`${FAKE_CLIENT_ID}:${FAKE_CLIENT_SECRET}`).toString('base64');
      const form = new URLSearchParams(req.body);
      if (req.headers.authorization !== `Basic ${basic}`) return { status: 401, body: { error: 'invalid_client' } };
      if (form.get('grant_type') !== 'client_credentials' || !String(req.headers['content-type']).startsWith('application/x-www-form-urlencoded')) {
        return { status: 400, body: { error: 'unsupported_grant_type' } };
      }
      const { token, expiresIn } = tokens.issue();
      return { status: 200, body: { access_token: token, token_type: 'Bearer', expires_in: expiresIn } };
    }
    if (req.method === 'GET' && req.path === '/v1/search') {
      if (!tokens.valid(req.headers.authorization)) return { status: 401, body: { error: { status: 401, message: 'The access token expired' } } };
      const q = req.query.get('q') ?? '';
      const limit = Number(req.query.get('limit') ?? 20);
      const offset = Number(req.query.get('offset') ?? 0);
      const body: Record<string, unknown> = {};
      for (const type of (req.query.get('type') ?? '').split(',')) {
        const page = (items: unknown[]) => ({ href: `https://api.example/v1/search?q=${encodeURIComponent(q)}&type=${type}`, items, limit, next: null, offset, previous: null, total: items.length });
        if (type === 'artist') {
          body.artists = page([
            {
              external_urls: { spotify: `https://open.example/artist/a1` }, followers: { href: null, total: 1234 }, genres: ['indie pop'],
              href: 'https://api.example/v1/artists/a1', id: 'a1', images: [{ url: 'https://img.example/a1.png', height: 640, width: 640 }],
              name: `${q} (artist)`, popularity: 55, type: 'artist', uri: 'spotify:artist:a1',
            },
          ]);
        } else {
          body[`${type}s`] = page([{ id: `${type}-1`, name: `${q} (${type})`, type, external_urls: { spotify: `https://open.example/${type}/1` } }]);
        }
      }
      return { status: 200, body };
    }
    return { status: 404, body: { error: { status: 404, message: 'Service not found' } } };
  });
  return { server, tokens };
}
