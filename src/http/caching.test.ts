import { getOperationAST, parse } from 'graphql';
import { cacheControl, NO_STORE, operationPolicy, QUERY_CACHE, REVALIDATE, stricter } from './caching';

const policyOf = (text: string) => {
  const document = parse(text);
  return cacheControl(operationPolicy(document, getOperationAST(document) ?? undefined));
};

describe('HTTP caching policies', () => {
  it('takes the stricter of two: no-store over revalidate over reuse, then the shorter max-age', () => {
    const minute = { kind: 'reuse', maxAgeS: 60 } as const;
    const fiveMinutes = { kind: 'reuse', maxAgeS: 300 } as const;
    expect(stricter(fiveMinutes, minute)).toEqual(minute);
    expect(stricter(minute, fiveMinutes)).toEqual(minute);
    expect(stricter(minute, REVALIDATE)).toEqual(REVALIDATE);
    expect(stricter(NO_STORE, REVALIDATE)).toEqual(NO_STORE);
  });

  it('reads a query through inline fragments and fragments (even self-referencing ones), by field name not alias', () => {
    expect(policyOf('{ compositions { id } }')).toBe('private, max-age=300');
    expect(policyOf('{ secret: compositions { id } ... on Query { researchGenres { id } } }')).toBe('private, max-age=60');
    expect(policyOf('query { ...A } fragment A on Query { compositions { id } ...B } fragment B on Query { ...A me { id } }')).toBe('private, no-cache');
    expect(policyOf('{ compositions { id } apiKeys { id } }')).toBe('no-store');
    expect(policyOf('{ aFieldNobodyDecided }')).toBe('no-store');
    expect(policyOf('{ __schema { queryType { name } } }')).toBe('private, no-cache');
    expect(policyOf('mutation { signupAgent(input: {email: "a@b.c"}) { api_key: apiKey } }')).toBe('no-store');
  });

  it('never lets an Object.prototype name pass for a decided field', () => {
    expect(Object.hasOwn(QUERY_CACHE, 'constructor')).toBe(false);
    expect(policyOf('{ constructor }')).toBe('no-store');
    expect(policyOf('{ toString }')).toBe('no-store');
  });
});
