/**
 * The command line as a function of its arguments and environment, so tests can run it in
 * process; `cli.ts` binds it to the real process.
 */
import { storeLocation } from '../container.js';
import { DomainError } from '../domain/errors.js';
import { COMMANDS, type Command, DB_OPTION } from './commands.js';
import { commandHelp, programHelp } from './help.js';
import { parseOptions, UsageError } from './options.js';

export interface CliIo {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  env: Record<string, string | undefined>;
}

function findCommand(argv: readonly string[]): { command: Command; rest: string[] } | undefined {
  for (const command of COMMANDS) {
    const words = command.name.split(' ');
    if (words.every((word, i) => argv[i] === word)) return { command, rest: argv.slice(words.length) };
  }
  return undefined;
}

async function dispatch(argv: readonly string[], io: CliIo): Promise<void> {
  if (argv.length === 0 || argv[0] === '--help' || argv[0] === '-h' || argv[0] === 'help') {
    io.stdout(programHelp(COMMANDS));
    return;
  }
  const found = findCommand(argv);
  if (!found) {
    const known = COMMANDS.map((c) => c.name).join(', ');
    const words = argv
      .filter((a) => !a.startsWith('-'))
      .slice(0, 2)
      .join(' ');
    throw new UsageError(`Unknown command "${words}". Commands: ${known}.`);
  }
  const { command, rest } = found;
  const common = [DB_OPTION];
  const parsed = parseOptions(rest, [...command.options, ...common]);
  if (parsed.help) {
    io.stdout(commandHelp(command, common));
    return;
  }
  const db = (parsed.options.db as string | undefined) ?? io.env.WAITLIST_DB ?? './data/waitlist.db';
  // Refused before anything runs: a mistyped URL is no folder to create, and no server to start.
  storeLocation(db);
  const result = await command.run(parsed.options, { db, env: io.env, stdout: io.stdout });
  if (result !== undefined) io.stdout(`${JSON.stringify(result)}\n`);
}

/** A use case's error in the command line's words: the option it concerns, the value that fixes it. */
function inOptionWords(error: DomainError): string {
  if (error.field === undefined) return error.message;
  const option = `--${error.field.replaceAll('_', '-')}`;
  return error.remedy === undefined
    ? `${option}: ${error.message}`
    : `${error.message} (${option} ${JSON.stringify(error.remedy)})`;
}

/** Runs one command; resolves to the process exit code. */
export async function runCommandLine(argv: readonly string[], io: CliIo): Promise<number> {
  try {
    await dispatch(argv, io);
    return 0;
  } catch (error) {
    const usage =
      error instanceof UsageError ||
      (error instanceof DomainError && (error.code === 'usage_error' || error.code === 'invalid_request'));
    const code = usage ? 'usage_error' : error instanceof DomainError ? error.code : 'internal_error';
    const message =
      error instanceof DomainError
        ? inOptionWords(error)
        : error instanceof Error
          ? error.message
          : String(error);
    io.stderr(`${JSON.stringify({ error: { code, message } })}\n`);
    return usage ? 2 : 1;
  }
}
