import { GraphQLError, locatedError } from 'graphql';
import { isDatabaseUnavailable } from './unavailable';

const withCode = (code: string, message = 'x') => Object.assign(new Error(message), { code });

describe('isDatabaseUnavailable', () => {
  it.each([
    ['connection refused', withCode('ECONNREFUSED')],
    ['connection reset', withCode('ECONNRESET')],
    ['connection exception class 08', withCode('08006')],
    ['admin shutdown 57P01', withCode('57P01', 'terminating connection due to administrator command')],
    ['cannot connect now 57P03', withCode('57P03')],
    ['pg: terminated', new Error('Connection terminated unexpectedly')],
    ['pg: connect timeout', new Error('timeout exceeded when trying to connect')],
    ['pg.Client: connectionTimeoutMillis', new Error('timeout expired')],
    ['knex acquire timeout', Object.assign(new Error('Knex: Timeout acquiring a connection. The pool is probably full.'), { name: 'KnexTimeoutError' })],
    ['wrapped by graphql-js', locatedError(withCode('ECONNREFUSED'), undefined)],
    ['a thrown non-Error, wrapped by graphql-js', locatedError({ errno: -111, code: 'ECONNREFUSED' }, undefined)],
    ['as a cause', new Error('query failed', { cause: withCode('ECONNRESET') })],
  ])('%s: yes', (_name, error) => {
    expect(isDatabaseUnavailable(error)).toBe(true);
  });

  it.each([
    ['unique violation', withCode('23505', 'duplicate key value violates unique constraint')],
    ['syntax error', withCode('42601')],
    ['statement timeout', withCode('57014', 'canceling statement due to statement timeout')],
    ['a GraphQL validation error', new GraphQLError('Cannot query field "x"')],
    ['not an error', 'ECONNREFUSED'],
    ['nothing', undefined],
  ])('%s: no', (_name, error) => {
    expect(isDatabaseUnavailable(error)).toBe(false);
  });
});
