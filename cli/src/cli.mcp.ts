import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

/**
 * `mas mcp`: MCP over stdio for agent hosts that only launch local processes, forwarding every
 * JSON-RPC message to the service's /mcp (Streamable HTTP, with the CLI's URL and key) and every
 * answer and notification (progress included) back. The messages pass as they are: the tools,
 * prompts, errors and budgets are the service's. Resolves when stdin ends.
 */
export async function serveMcpOverStdio(url: string, apiKey: string, io: { stdin: NodeJS.ReadableStream; stdout: NodeJS.WritableStream; stderr: NodeJS.WritableStream } = process): Promise<void> {
  const remote = new StreamableHTTPClientTransport(new URL('/mcp', url), { requestInit: { headers: { 'x-api-key': apiKey } } });
  const local = new StdioServerTransport(io.stdin as never, io.stdout as never);
  const warn = (message: string) => io.stderr.write(`mas mcp: ${message}\n`);
  const closed = new Promise<void>((resolve) => {
    local.onclose = () => resolve();
    io.stdin.once('end', () => resolve());
  });
  remote.onmessage = (message) => {
    void local.send(message).catch((error: unknown) => warn(`cannot write to stdout: ${(error as Error).message}`));
  };
  remote.onerror = (error) => warn(error.message);
  local.onerror = (error) => warn(error.message);
  local.onmessage = (message: JSONRPCMessage) => {
    remote.send(message).catch((error: unknown) => {
      // The service could not be reached or refused the request (401, 5xx): the host gets an answer, not silence.
      warn(`${url}/mcp: ${(error as Error).message}`);
      if ('id' in message && 'method' in message) {
        void local.send({ jsonrpc: '2.0', id: message.id, error: { code: -32603, message: `The service at ${url} did not answer: ${(error as Error).message}` } });
      }
    });
  };
  await remote.start();
  await local.start();
  await closed;
  await remote.close().catch(() => undefined);
  await local.close().catch(() => undefined);
}
