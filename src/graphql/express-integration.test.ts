import { expressMiddleware } from '@as-integrations/express5';
import type { ApolloServer, HTTPGraphQLRequest } from '@apollo/server';
import type { Request, Response } from 'express';
import fc from 'fast-check';
import url, { parse } from 'node:url';

/**
 * patches/@as-integrations+express5+1.1.2.patch: the integration hands Apollo the request's query
 * string (`search`, read by Apollo with URLSearchParams for GET operations) cut out of the URL,
 * where upstream it called url.parse, whose deprecation check captures a stack trace on every call
 * on Node 24 (7-10 µs, 4 % of a saturated /graphql process's busy time). What Apollo reads of it
 * must be what it read of url.parse's: the same parameters, in the same order, for any URL.
 */
async function searchHanded(url: string): Promise<string> {
  let handed: HTTPGraphQLRequest | undefined;
  const server = {
    assertStarted: () => undefined,
    executeHTTPGraphQLRequest: async ({ httpGraphQLRequest }: { httpGraphQLRequest: HTTPGraphQLRequest }) => {
      handed = httpGraphQLRequest;
      return { status: 200, headers: new Map<string, string>(), body: { kind: 'complete', string: '{}' } };
    },
  } as unknown as ApolloServer;
  const req = { url, method: 'GET', headers: {}, body: {} } as unknown as Request;
  const res = { setHeader: () => undefined, send: () => undefined } as unknown as Response;
  await expressMiddleware(server)(req, res, () => undefined);
  return handed!.search;
}

const params = (search: string) => [...new URLSearchParams(search)];

describe('the express integration hands Apollo the query string as url.parse did (patched)', () => {
  it('without url.parse (the patch is applied)', async () => {
    const parsed = jest.spyOn(url, 'parse');
    try {
      expect(await searchHanded('/?query=%7Bme%7Bid%7D%7D')).toBe('?query=%7Bme%7Bid%7D%7D');
      expect(parsed).not.toHaveBeenCalled();
    } finally {
      parsed.mockRestore();
    }
  });

  it('for GraphQL over GET as clients send it, and around a fragment or a lone question mark', async () => {
    const query = '/?query=%7B%20me%20%7B%20id%20%7D%20%7D&variables=%7B%22a%22%3A1%7D&operationName=Me';
    expect(await searchHanded(query)).toBe('?query=%7B%20me%20%7B%20id%20%7D%20%7D&variables=%7B%22a%22%3A1%7D&operationName=Me');
    expect(await searchHanded('/')).toBe('');
    expect(await searchHanded('/?')).toBe('?');
    expect(await searchHanded('/?query={me{id}}#frag?x=1')).toBe('?query={me{id}}');
    expect(await searchHanded('/#frag?query=x')).toBe('');
    for (const url of [query, '/', '/?', '/?query={me{id}}#frag?x=1', '/#frag?query=x', "/?q=a b'c\"d|e^f`g\\h", '/?a=1&a=2&b=%zz&c=+x+']) {
      expect({ url, params: params(await searchHanded(url)) }).toEqual({ url, params: params(parse(url).search ?? '') });
    }
  });

  it('for any URL a client sends (printable ASCII, as HTTP allows): the same parameters, in order, as url.parse gave', async () => {
    // Raw non-ASCII is where the two part: url.parse's search of "/?é{%" is "?é%7B%", which
    // URLSearchParams decodes to "\uFFFD{%"; the one cut out of the URL keeps the é.
    const printable = fc.array(fc.integer({ min: 0x21, max: 0x7e }), { maxLength: 8 }).map((codes) => String.fromCharCode(...codes));
    const piece = fc.oneof(printable, fc.constantFrom('?', '#', '&', '=', '%', '%20', '+', '{', '"', '%zz', '%C3%A9'));
    await fc.assert(
      fc.asyncProperty(fc.array(piece, { maxLength: 12 }), async (pieces) => {
        const path = `/${pieces.join('')}`;
        let upstream: string | undefined;
        try {
          upstream = parse(path).search ?? '';
        } catch {
          // url.parse throws on some paths starting with "//" (URIError on "//%@?", ERR_INVALID_URL on "//]?"): upstream, a 500 (test/hostile/graphql-pipeline.int.test.ts).
        }
        const handed = await searchHanded(path);
        if (upstream !== undefined) expect(params(handed)).toEqual(params(upstream));
        else {
          const beforeHash = path.split('#')[0]!;
          expect(handed).toBe(beforeHash.includes('?') ? beforeHash.slice(beforeHash.indexOf('?')) : '');
        }
      }),
      { numRuns: 500 },
    );
  });
});
