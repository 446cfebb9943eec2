import express, { NextFunction, Request, Response } from 'express';
import { Writable } from 'node:stream';
import supertest from 'supertest';
import { createLogger, Logger } from '../common/logger';
import { requestLogging } from './request-log';

/** A logger writing into `lines`, and how many request loggers were built from it (each serializes the request). */
function capture(level: string) {
  const lines: Record<string, unknown>[] = [];
  const stream = new Writable({
    write(chunk, _enc, done) {
      for (const line of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(line));
      done();
    },
  });
  const logger = createLogger(level, {}, false, stream);
  const built = { count: 0 };
  // requestLogging makes one logger with the HTTP serializers at start-up; request loggers are its children.
  const pinoChild = logger.child;
  jest.spyOn(logger, 'child').mockImplementationOnce((bindings, options) => {
    const httpLogger = pinoChild.call(logger, bindings, options);
    httpLogger.child = ((b: Record<string, unknown>, o?: object) => {
      built.count += 1;
      return pinoChild.call(httpLogger, b, o);
    }) as Logger['child'];
    return httpLogger;
  });
  return { logger, lines, built };
}

function appWith(logger: Logger) {
  const app = express();
  app.use(
    requestLogging(logger, {
      genReqId: (req, res) => {
        const id = (req.headers['x-request-id'] as string | undefined) ?? 'generated-id';
        res.setHeader('x-request-id', id);
        return id;
      },
      customLogLevel: (req, res, err) => (err || res.statusCode >= 500 ? 'error' : req.url === '/quiet' ? 'silent' : 'info'),
      ignore: (req) => req.url === '/healthz',
    }),
  );
  app.get('/quiet', (_req, res) => {
    res.json({ ok: true });
  });
  app.get('/healthz', (_req, res) => {
    res.json({ ok: true });
  });
  app.get('/runs/:runId', (req, res) => {
    res.json({ runId: req.params.runId, id: req.id });
  });
  app.get('/service', (req, res) => {
    req.log.warn({ runId: 'r-9' }, 'job cancel failed');
    res.json({ ok: true });
  });
  app.get('/boom', (_req, _res, next) => next(new Error('database gone')));
  app.use((_error: unknown, _req: Request, res: Response, _next: NextFunction) => {
    res.status(500).json({ code: 'INTERNAL_SERVER_ERROR' });
  });
  return supertest(app);
}

describe('requestLogging: the access line pino-http writes, field by field, the request logger built only to write', () => {
  it('sets the request id (given or generated) and, at warn, builds no request logger for a request that logs nothing', async () => {
    const { logger, lines, built } = capture('warn');
    const http = appWith(logger);
    const given = await http.get('/runs/abc').set('x-request-id', 'given-id');
    expect(given.headers['x-request-id']).toBe('given-id');
    expect(given.body).toEqual({ runId: 'abc', id: 'given-id' });
    const generated = await http.get('/runs/abc');
    expect(generated.headers['x-request-id']).toBe('generated-id');
    expect(lines).toEqual([]);
    expect(built.count).toBe(0);
  });

  it('writes the access line at info: the request (as when it arrived, secrets redacted) with its id, the response and its time', async () => {
    const { logger, lines, built } = capture('info');
    const http = appWith(logger);
    await http.get('/runs/abc?q=1').set('x-request-id', 'r-1').set('x-api-key', 'mas_secret').set('authorization', 'Bearer t');
    await http.get('/healthz');
    expect(lines).toHaveLength(1);
    expect(built.count).toBe(1);
    expect(lines[0]).toEqual({
      level: 30,
      time: expect.any(String),
      service: 'music-agent-service',
      req: {
        id: 'r-1',
        method: 'GET',
        url: '/runs/abc?q=1',
        query: { q: '1' },
        // Serialized as pino-http did, when the request arrived: before routing set the route's params.
        params: {},
        headers: expect.objectContaining({ 'x-api-key': '[redacted]', authorization: '[redacted]', 'x-request-id': 'r-1' }),
        remoteAddress: expect.stringMatching(/127\.0\.0\.1/),
        remotePort: expect.any(Number),
      },
      res: { statusCode: 200, headers: expect.objectContaining({ 'x-request-id': 'r-1', 'content-type': 'application/json; charset=utf-8' }) },
      responseTime: expect.any(Number),
      msg: 'request completed',
    });
  });

  it('at warn still writes a failed request (error level, with the request and its id) and a service line through req.log', async () => {
    const { logger, lines, built } = capture('warn');
    const http = appWith(logger);
    await http.get('/boom').set('x-request-id', 'r-500').set('x-api-key', 'mas_secret');
    await http.get('/service').set('x-request-id', 'r-svc');
    expect(built.count).toBe(2);
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatchObject({
      level: 50,
      msg: 'request errored',
      req: { id: 'r-500', url: '/boom', headers: { 'x-api-key': '[redacted]' } },
      res: { statusCode: 500 },
      err: { type: 'Error', message: 'failed with status code 500' },
      responseTime: expect.any(Number),
    });
    expect(lines[1]).toMatchObject({ level: 40, msg: 'job cancel failed', runId: 'r-9', req: { id: 'r-svc', url: '/service' } });
  });

  it('writes no line, and builds no request logger, for a request whose level is silent (a ready probe), even at info', async () => {
    const { logger, lines, built } = capture('info');
    const http = appWith(logger);
    expect((await http.get('/quiet')).status).toBe(200);
    expect(lines).toEqual([]);
    expect(built.count).toBe(0);
  });
});
