import type { Db } from '../db/request-db';
import { createLoaders, modules } from '.';

describe('createLoaders', () => {
  it("builds a module's loaders when one of them is first used, once per request, on the request's database", () => {
    const factories = modules.filter((m) => m.loaders).map((m) => ({ name: m.name, spy: jest.spyOn(m, 'loaders') }));
    const calls = () => Object.fromEntries(factories.map((f) => [f.name, f.spy.mock.calls.length]));
    const none = Object.fromEntries(factories.map((f) => [f.name, 0]));
    const db = { request: 1 } as unknown as Db;
    createLoaders(db); // the first request's also learns the loader names
    factories.forEach((f) => f.spy.mockClear());

    const loaders = createLoaders(db);
    expect(calls()).toEqual(none);
    const run = loaders.reachableRunById;
    expect(loaders.reachableRunById).toBe(run);
    expect(calls()).toEqual({ ...none, render: 1 });
    expect(factories.find((f) => f.name === 'render')!.spy).toHaveBeenCalledWith(db);
    void loaders.catalogSongsPage;
    void loaders.creditsByEntry;
    expect(calls()).toEqual({ ...none, render: 1, catalog: 1 });

    // Another request's are its own.
    const other = { request: 2 } as unknown as Db;
    expect(createLoaders(other).reachableRunById).not.toBe(run);
    expect(factories.find((f) => f.name === 'render')!.spy).toHaveBeenLastCalledWith(other);
  });
});
