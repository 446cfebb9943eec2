import { ChildProcess, fork } from 'node:child_process';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';

const root = join(__dirname, '..', '..');

export type LogLine = Record<string, unknown> & { msg?: string };

/** A real service process (`npm start` or `npm run worker` entry), TypeScript compiled on load. */
export interface ServiceProcess {
  name: string;
  child: ChildProcess;
  /** Its JSON log lines so far (stdout; LOG_FORMAT=json). */
  logs: LogLine[];
  /** Its stderr and non-JSON output, for failure messages. */
  text(): string;
  /** Exit code, once it exited. */
  exited: Promise<number | null>;
  /** Resolves with the first log line matching, or rejects after `timeoutMs` (or at exit). */
  waitForLog(match: (line: LogLine) => boolean, timeoutMs: number): Promise<LogLine>;
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** Forks src/main.ts (`api`) or src/worker.ts (`worker`) with exactly `env` (plus PATH). */
export function startService(name: string, entry: 'api' | 'worker', env: Record<string, string>): ServiceProcess {
  const child = fork(join(root, 'src', entry === 'api' ? 'main.ts' : 'worker.ts'), [], {
    cwd: root,
    execArgv: ['-r', join(root, 'test', 'support', 'swc-register.js')],
    env: { PATH: process.env.PATH ?? '', LOG_FORMAT: 'json', ...env },
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
  });
  const logs: LogLine[] = [];
  const waiters = new Set<() => void>();
  let text = '';
  let partial = '';
  child.stdout!.on('data', (chunk: Buffer) => {
    const lines = (partial + chunk.toString()).split('\n');
    partial = lines.pop() ?? '';
    for (const line of lines) {
      if (!line.trim()) continue;
      try {
        logs.push(JSON.parse(line) as LogLine);
      } catch {
        text += `${line}\n`;
      }
    }
    for (const wake of waiters) wake();
  });
  child.stderr!.on('data', (chunk: Buffer) => {
    text = (text + chunk.toString()).slice(-8000);
  });
  let done = false;
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  void exited.then(() => {
    done = true;
    for (const wake of waiters) wake();
  });
  return {
    name,
    child,
    logs,
    text: () => text,
    exited,
    waitForLog(match, timeoutMs) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const found = logs.find(match);
          if (found) finish(() => resolve(found));
          else if (done) finish(() => reject(new Error(`${name} exited before the awaited log line: ${text.trim().slice(-2000)}`)));
        };
        const timer = setTimeout(() => finish(() => reject(new Error(`${name}: awaited log line not seen in ${timeoutMs} ms: ${text.trim().slice(-2000)}`))), timeoutMs);
        const finish = (settle: () => void) => {
          clearTimeout(timer);
          waiters.delete(check);
          settle();
        };
        waiters.add(check);
        check();
      });
    },
  };
}

/** Polls GET /readyz of an API process until it answers 200. */
export async function waitReady(service: ServiceProcess, port: number, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let exited = false;
  void service.exited.then(() => (exited = true));
  for (;;) {
    const ok = await fetch(`http://127.0.0.1:${port}/readyz`).then((r) => r.status === 200, () => false);
    if (ok) return;
    if (exited) throw new Error(`${service.name} exited before it was ready: ${service.text().trim().slice(-2000)}`);
    if (Date.now() > deadline) throw new Error(`${service.name} not ready in ${timeoutMs} ms: ${service.text().trim().slice(-2000)}`);
    await new Promise((r) => setTimeout(r, 150));
  }
}
