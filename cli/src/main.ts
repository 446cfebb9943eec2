#!/usr/bin/env node
import { COMMANDS, commandHelp, loadContext, mainHelp, parseCommand } from './cli.commands';
import { EXIT, exitCodeOf, reportError, UsageError } from './cli.output';

/** `mas <command> …`: returns the exit code (see EXIT). */
export async function run(argv: string[], env: NodeJS.ProcessEnv): Promise<number> {
  const [name, ...args] = argv;
  const json = args.includes('--json') || name === '--json';
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    process.stdout.write(mainHelp());
    return name === undefined ? EXIT.usage : EXIT.ok;
  }
  const command = Object.hasOwn(COMMANDS, name) ? COMMANDS[name] : undefined;
  if (!command) {
    reportError(new UsageError(`unknown command ${JSON.stringify(name)}; run mas --help`), json);
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
