import { Writable } from 'node:stream';
import { createLogger, lazyChild } from './logger';

function capture(level: string) {
  const lines: Record<string, unknown>[] = [];
  const stream = new Writable({
    write(chunk, _enc, done) {
      for (const line of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(line));
      done();
    },
  });
  return { logger: createLogger(level, {}, false, stream), lines };
}

const withoutTime = ({ time: _time, ...line }: Record<string, unknown>) => line;
const request = () => ({ req: { id: 'r-1', headers: { 'x-api-key': 'mas_secret', 'x-request-id': 'r-1' } } });

describe('lazyChild', () => {
  it('builds nothing for lines at levels the parent does not write, nor for level questions', () => {
    const { logger, lines } = capture('warn');
    const bindings = jest.fn(request);
    const log = lazyChild(logger, bindings);
    log.info({ a: 1 }, 'not written');
    log.debug('not written');
    log.trace('not written');
    expect(log.isLevelEnabled('info')).toBe(false);
    expect(log.isLevelEnabled('warn')).toBe(true);
    expect(log.level).toBe('warn');
    expect(bindings).not.toHaveBeenCalled();
    expect(lines).toEqual([]);
  });

  it('builds the child once, on the first line it writes, and writes what an eager child writes (secrets redacted)', () => {
    const { logger, lines } = capture('warn');
    const bindings = jest.fn(request);
    const log = lazyChild(logger, bindings);
    log.warn({ runId: 'x' }, 'first');
    log.error({ err: new Error('boom') }, 'second');
    expect(bindings).toHaveBeenCalledTimes(1);
    const eager = logger.child(request());
    eager.warn({ runId: 'x' }, 'first');
    eager.error({ err: new Error('boom') }, 'second');
    expect(lines).toHaveLength(4);
    const [lazyFirst, lazySecond, eagerFirst, eagerSecond] = lines.map(withoutTime);
    expect(lazyFirst).toEqual(eagerFirst);
    expect({ ...lazySecond, err: undefined }).toEqual({ ...eagerSecond, err: undefined });
    expect(lazyFirst).toMatchObject({ level: 40, msg: 'first', runId: 'x', req: { id: 'r-1', headers: { 'x-api-key': '[redacted]', 'x-request-id': 'r-1' } } });
    expect(lazySecond).toMatchObject({ level: 50, msg: 'second', err: { message: 'boom' }, req: { id: 'r-1' } });
  });

  it('is built by anything else asked of it: bindings, a grandchild', () => {
    const { logger, lines } = capture('info');
    const bindings = jest.fn(() => ({ requestId: 'r-2' }));
    const log = lazyChild(logger, bindings);
    expect(log.bindings()).toEqual({ service: 'music-agent-service', requestId: 'r-2' });
    log.child({ component: 'x' }).info('from the grandchild');
    expect(bindings).toHaveBeenCalledTimes(1);
    expect(lines.map(withoutTime)).toEqual([{ level: 30, service: 'music-agent-service', requestId: 'r-2', component: 'x', msg: 'from the grandchild' }]);
  });
});
