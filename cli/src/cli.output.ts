import { MasError } from '@mas/sdk';

/** Exit codes a script can tell apart. */
export const EXIT = { ok: 0, usage: 2, auth: 3, input: 4, server: 5, renderFailed: 6 } as const;

export class UsageError extends Error {}

/** A run that ended FAILED or CANCELED. */
export class RenderFailedError extends Error {}

export function exitCodeOf(error: unknown): number {
  if (error instanceof UsageError) return EXIT.usage;
  if (error instanceof RenderFailedError) return EXIT.renderFailed;
  if (error instanceof MasError) {
    if (error.status === 401 || error.status === 403) return EXIT.auth;
    if (error.status >= 400 && error.status < 500) return EXIT.input;
    return EXIT.server;
  }
  return EXIT.server;
}

/** One line per problem on stderr, or a JSON error object on stdout with --json. */
export function reportError(error: unknown, json: boolean): void {
  const code = error instanceof MasError ? error.code : error instanceof UsageError ? 'USAGE' : error instanceof RenderFailedError ? 'RENDER_FAILED' : 'ERROR';
  const message = error instanceof Error ? error.message : String(error);
  if (json) {
    const details = error instanceof MasError ? error.details : undefined;
    process.stdout.write(`${JSON.stringify({ error: { code, message, ...(details ? { details } : {}) } })}\n`);
    return;
  }
  process.stderr.write(`mas: ${code}: ${message}\n`);
  if (error instanceof MasError) for (const d of error.details ?? []) process.stderr.write(`  ${d.field}: ${d.message}\n`);
}

/** Draws a bar in place on a terminal; elsewhere prints a line when status or the tenth of progress changes. */
export class Progress {
  private last = '';
  constructor(private readonly stream: NodeJS.WriteStream, private readonly enabled: boolean) {}

  update(status: string, progress: number): void {
    if (!this.enabled) return;
    const pct = Math.round(Math.max(0, Math.min(1, progress)) * 100);
    if (this.stream.isTTY) {
      const width = 30;
      const filled = Math.round((pct / 100) * width);
      this.stream.write(`\r[${'#'.repeat(filled)}${'-'.repeat(width - filled)}] ${String(pct).padStart(3)}% ${status.padEnd(9)}`);
      return;
    }
    const line = `${status} ${Math.floor(pct / 10) * 10}%`;
    if (line !== this.last) this.stream.write(`${status} ${pct}%\n`);
    this.last = line;
  }

  end(): void {
    if (this.enabled && this.stream.isTTY) this.stream.write('\n');
  }
}
