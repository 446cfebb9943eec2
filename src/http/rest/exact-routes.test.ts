import { exactRoutes } from './rest.router';
import type { RestRoute } from './route';
import { restRoutes } from './routes';

const table = (routes: RestRoute[]) => new Map(routes.map((route) => [route, `${route.method} ${route.path}`]));
const get = (path: string): RestRoute => ({ operation: 'Query.x', method: 'GET', path, select: '' });

describe('exactRoutes', () => {
  it('looks up every param-less route of the REST table, with and without a trailing slash, to its own handlers', () => {
    const exact = exactRoutes(table(restRoutes));
    const paramless = restRoutes.filter((r) => !r.path.includes(':'));
    expect(exact.size).toBe(2 * paramless.length);
    for (const route of paramless) {
      expect(exact.get(`${route.method} ${route.path}`)).toBe(`${route.method} ${route.path}`);
      expect(exact.get(`${route.method} ${route.path}/`)).toBe(`${route.method} ${route.path}`);
    }
    expect(exact.get('GET /tasks/runs')).toBe('GET /tasks/runs');
    expect(exact.has('HEAD /tasks/runs')).toBe(false);
    expect(exact.has('GET /Tasks/runs')).toBe(false);
  });

  it('leaves to the table a route another route of its method could match, and every route when one path is not simple', () => {
    const shadowed = exactRoutes(table([get('/things/:id'), get('/things/new'), { ...get('/things/all'), method: 'POST' }, get('/other')]));
    expect([...shadowed.keys()]).toEqual(['POST /things/all', 'POST /things/all/', 'GET /other', 'GET /other/']);
    // Case is ignored by the router's matching: /Things/new would be the same route.
    expect([...exactRoutes(table([get('/Things/:id'), get('/things/new')])).keys()]).toEqual([]);
    expect([...exactRoutes(table([get('/things/{*rest}'), get('/other')])).keys()]).toEqual([]);
  });
});
