import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { TestApp } from '../app';

/** A port free right now, so the app's PUBLIC_URL (render links) can name the port it will listen on. */
export async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

/** Opens the test app on 127.0.0.1 (an ephemeral port unless given) and returns its base URL. */
export async function listen(t: TestApp, port = 0): Promise<string> {
  await new Promise<void>((resolve) => t.app.server.listen(port, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
}
