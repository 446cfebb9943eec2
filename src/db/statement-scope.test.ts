import { EventEmitter } from 'node:events';
import type { IncomingMessage, ServerResponse } from 'node:http';
import fc from 'fast-check';
import { createLogger } from '../common/logger';
import { cancelOnDisconnect, tracked, type PgBackend } from './statement-scope';

interface Planned {
  connection: number;
  rollback: boolean;
  /** Started when the request begins, or one step later (maybe after its client has gone). */
  later: boolean;
}

type Event =
  | { kind: 'close' }
  | { kind: 'started' | 'given back' | 'refused'; statement: number; connection: number }
  | { kind: 'cancel sent' | 'cancel taken' | 'closed'; connection: number };

/**
 * cancelOnDisconnect and tracked, under every order fast-check's scheduler picks for a request's
 * statements ending, its client leaving, and the cancels being taken (or failing). A connection is
 * given back when `tracked` settles (that is when knex and hotStatement release it): it must never
 * be given back, nor run anything, while a cancel naming it is on its way; else the cancel can land
 * on the statement of whichever request takes the connection next.
 */
describe('cancelOnDisconnect: a cancel lands only while its request still holds the connection', () => {
  it('holds in every interleaving of statements, the client leaving and cancels', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.scheduler(),
        fc.array(fc.record({ connection: fc.integer({ min: 0, max: 2 }), rollback: fc.boolean(), later: fc.boolean() }), { minLength: 1, maxLength: 6 }),
        fc.boolean(),
        fc.array(fc.boolean(), { minLength: 3, maxLength: 3 }),
        async (s, plan: Planned[], leaves, cancelFails) => {
          const connections: PgBackend[] = [0, 1, 2].map((i) => ({ processID: 100 + i, secretKey: i, end: () => log({ kind: 'closed', connection: i }) }));
          const index = (c: PgBackend) => connections.indexOf(c);
          const events: Event[] = [];
          const log = (e: Event) => events.push(e);
          const send = async (c: PgBackend) => {
            log({ kind: 'cancel sent', connection: index(c) });
            await s.schedule(Promise.resolve(), `cancel ${index(c)} taken`);
            if (cancelFails[index(c)]) throw new Error('the server did not take the cancel');
            log({ kind: 'cancel taken', connection: index(c) });
          };
          const res = Object.assign(new EventEmitter(), { writableFinished: false }) as unknown as ServerResponse;
          const middleware = cancelOnDisconnect(createLogger('silent'), { send });
          const settled: Promise<unknown>[] = [];

          const run = (p: Planned, n: number) =>
            tracked(
              connections[p.connection],
              async () => {
                log({ kind: 'started', statement: n, connection: p.connection });
                await s.schedule(Promise.resolve(), `statement ${n} ends`);
              },
              p.rollback ? 'rollback' : 'select 1',
            ).then(
              () => log({ kind: 'given back', statement: n, connection: p.connection }),
              () => log({ kind: 'refused', statement: n, connection: p.connection }),
            );
          middleware({} as IncomingMessage, res, () => {
            plan.forEach((p, n) => {
              if (!p.later) settled.push(run(p, n));
              else settled.push(s.schedule(Promise.resolve(), `statement ${n} starts`).then(() => run(p, n)));
            });
          });
          if (leaves) settled.push(s.schedule(Promise.resolve(), 'client leaves').then(() => (log({ kind: 'close' }), res.emit('close'))));
          // Every scheduled step in the order fast-check picks, until every statement has ended; one
          // that still waits with nothing left to schedule waits forever.
          let ended = false;
          void Promise.all(settled).then(() => (ended = true));
          for (let idle = 0; !ended; ) {
            if (s.count() > 0) {
              idle = 0;
              await s.waitOne();
            } else if (++idle > 20) {
              throw new Error(`a statement waits forever: ${JSON.stringify(events)}`);
            } else {
              await new Promise((resolve) => setImmediate(resolve));
            }
          }

          const at = (e: Event) => events.indexOf(e);
          const close = events.find((e) => e.kind === 'close');
          for (const [n, p] of plan.entries()) {
            const started = events.find((e) => e.kind === 'started' && e.statement === n);
            const end = events.find((e) => (e.kind === 'given back' || e.kind === 'refused') && e.statement === n)!;
            // After the client left, only a ROLLBACK starts.
            if (close && started && at(started) > at(close)) expect(p.rollback).toBe(true);
            if (close && !started) expect(end.kind).toBe('refused');
            const cancel = events.find((e) => e.kind === 'cancel sent' && e.connection === p.connection);
            if (!cancel) continue;
            const answered = events.find((e) => (e.kind === 'cancel taken' || e.kind === 'closed') && e.connection === p.connection);
            // A connection a cancel names: given back only once the server took the cancel (or closed
            // instead), and nothing starts on it in between.
            expect(answered).toBeDefined();
            if (end.kind === 'given back' && at(end) > at(cancel)) expect(at(end)).toBeGreaterThan(at(answered!));
            if (started && at(started) > at(cancel)) expect(at(started)).toBeGreaterThan(at(answered!));
          }
          // Each connection running a statement when the client left gets exactly one cancel; no other does.
          const running = new Set<number>();
          for (const e of events) {
            if (e === close) break;
            if (e.kind === 'started') running.add(e.connection);
            if (e.kind === 'given back' || e.kind === 'refused') {
              const open = events.slice(0, at(e)).filter((x) => x.kind === 'started' && x.connection === e.connection).length -
                events.slice(0, at(e) + 1).filter((x) => (x.kind === 'given back' || x.kind === 'refused') && x.connection === e.connection).length;
              if (open <= 0) running.delete(e.connection);
            }
          }
          const cancelled = events.filter((e) => e.kind === 'cancel sent').map((e) => (e as { connection: number }).connection);
          expect(cancelled.sort()).toEqual(close ? [...running].sort() : []);
        },
      ),
      { numRuns: 300 },
    );
  });
});
