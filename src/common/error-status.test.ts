import { AppError, ERROR_CODES } from './errors';
import { ERROR_STATUS, fromAppError, graphqlAnswerStatus, graphqlMediaType, retryAfterSeconds } from './error-status';

describe('graphqlMediaType: the media type /graphql answers with, negotiated as Apollo Server does', () => {
  it.each([
    [undefined, 'application/json'],
    ['', 'application/json'],
    ['*/*', 'application/json'],
    ['application/json', 'application/json'],
    ['application/graphql-response+json', 'application/graphql-response+json'],
    ['application/graphql-response+json, application/json;q=0.9', 'application/graphql-response+json'],
    ['application/json, application/graphql-response+json;q=0.5', 'application/json'],
    ['application/graphql-response+json;q=0.1, application/json;q=0.2', 'application/json'],
    ['application/*', 'application/json'],
    ['text/html', undefined],
    ['application/xml', undefined],
  ])('Accept %p → %p', (accept, expected) => {
    expect(graphqlMediaType(accept)).toBe(expected);
  });
});

describe('graphqlAnswerStatus', () => {
  const refused = (code: string) => ({ errors: [{ extensions: { code } }] });

  it('as application/json: 200 for every GraphQL answer, whatever its errors', () => {
    // The status Apollo would give (a context or plugin refusal carries the table's), but for the
    // HTTP-level ones (405, 413, 415), which never come from a GraphQL answer.
    const httpLevel = new Set([405, 413, 415]);
    for (const code of ERROR_CODES) {
      const current = httpLevel.has(ERROR_STATUS[code]) ? undefined : ERROR_STATUS[code];
      expect({ code, status: graphqlAnswerStatus('application/json', refused(code), current) }).toEqual({ code, status: 200 });
    }
    expect(graphqlAnswerStatus('application/json', refused('GRAPHQL_PARSE_FAILED'), 400)).toBe(200);
  });

  it('as graphql-response+json: the table’s status for an answer without data or with data null, 200 beside data', () => {
    for (const code of ERROR_CODES) {
      expect(graphqlAnswerStatus('application/graphql-response+json', refused(code), undefined)).toBe(ERROR_STATUS[code]);
      expect(graphqlAnswerStatus('application/graphql-response+json', { data: null, ...refused(code) }, undefined)).toBe(ERROR_STATUS[code]);
      expect(graphqlAnswerStatus('application/graphql-response+json', { data: { me: null }, ...refused(code) }, undefined)).toBe(200);
    }
    expect(graphqlAnswerStatus('application/graphql-response+json', { data: { me: { id: '1' } } }, undefined)).toBe(200);
  });

  it('keeps Apollo’s status for its own codes, and statuses of requests that are no GraphQL request yet', () => {
    expect(graphqlAnswerStatus('application/graphql-response+json', refused('GRAPHQL_VALIDATION_FAILED'), 400)).toBe(400);
    expect(graphqlAnswerStatus('application/graphql-response+json', refused('PERSISTED_QUERY_NOT_FOUND'), 200)).toBe(200);
    for (const status of [405, 406, 413, 415]) {
      expect(graphqlAnswerStatus('application/json', refused('BAD_REQUEST'), status)).toBe(status);
      expect(graphqlAnswerStatus('application/graphql-response+json', refused('BAD_USER_INPUT'), status)).toBe(status);
    }
    // An answer without data, with an unknown code and no status from Apollo, is a server failure.
    expect(graphqlAnswerStatus('application/graphql-response+json', refused('SOMETHING_ELSE'), undefined)).toBe(500);
  });
});

describe('retryAfter: whole seconds, the same in the header and the extension', () => {
  it('rounds a fractional wait up, and never below 0', () => {
    const error = new AppError('RATE_LIMITED', 'wait', { retryAfter: 2.1 });
    expect(retryAfterSeconds(error)).toBe(3);
    expect(fromAppError(error).headers).toEqual({ 'Retry-After': '3' });
    expect(retryAfterSeconds(new AppError('PROVIDER_UNAVAILABLE', 'down', { retryAfter: -4 }))).toBe(0);
    expect(retryAfterSeconds(new AppError('NOT_FOUND', 'gone'))).toBeUndefined();
    expect(fromAppError(new AppError('NOT_FOUND', 'gone')).headers).toEqual({});
  });
});
