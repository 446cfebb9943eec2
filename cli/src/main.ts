#!/usr/bin/env node
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { suggestion } from './cli.args';
import { COMMANDS, commandHelp, loadContext, mainHelp, parseCommand } from './cli.commands';
import { EXIT, exitCodeOf, reportError, UsageError } from './cli.output';

/** The version of the installed package (package.json beside dist/ and src/). */
export function version(): string {
  return (JSON.parse(readFileSync(join(__dirname, '..', 'package.json'), 'utf8')) as { version: string }).version;
}

/** `mas <command> …`: returns the exit code (see EXIT). */
export async function run(argv: string[], env: NodeJS.ProcessEnv): Promise<number> {
  const [name, ...args] = argv;
  const json = args.includes('--json') || name === '--json';
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    process.stdout.write(mainHelp());
    return name === undefined ? EXIT.usage : EXIT.ok;
  }
  if (name === '--version' || name === '-v' || name === 'version') {
    process.stdout.write(`${version()}\n`);
    return EXIT.ok;
  }
  const command = Object.hasOwn(COMMANDS, name) ? COMMANDS[name] : undefined;
  if (!command) {
    reportError(new UsageError(`unknown command ${JSON.stringify(name)}${suggestion(name, Object.keys(COMMANDS), (n) => `mas ${n}`)}; run mas --help`), json);
    return EXIT.usage;
  }
  try {
    const { values, positionals } = parseCommand(name, args);
    if (values.help) {
      process.stdout.write(commandHelp(name));
      return EXIT.ok;
    }
    const ctx = await loadContext(values, positionals, env);
    try {
      await command.run(ctx);
    } finally {
      await ctx.close();
    }
    return EXIT.ok;
  } catch (error) {
    reportError(error, json);
    return exitCodeOf(error);
  }
}

if (require.main === module) {
  run(process.argv.slice(2), process.env).then(
    (code) => { process.exitCode = code; },
    (error: unknown) => {
      process.stderr.write(`mas: ${(error as Error).message}\n`);
      process.exitCode = EXIT.server;
    },
  );
}
