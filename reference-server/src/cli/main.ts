/**
 * The command line as a function of its arguments and environment, so tests can run it in
 * process; `cli.ts` binds it to the real process. Whatever a command answers is printed here:
 * its value as JSON on stdout, or its refusal, a usage error, an outage or a bug as the JSON
 * error of docs/command-line.md#commands on stderr, with the exit code.
 */
import { ok, type Result } from '../app/refusal.js';
import { storeLocation } from '../container.js';
import { DomainError } from '../domain/errors.js';
import type { Command } from './command.js';
import { COMMANDS, DB_OPTION } from './commands.js';
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

async function dispatch(argv: readonly string[], io: CliIo): Promise<Result<unknown>> {
  if (argv.length === 0 || argv[0] === '--help' || argv[0] === '-h' || argv[0] === 'help') {
    io.stdout(programHelp(COMMANDS));
    return ok(undefined);
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
    return ok(undefined);
  }
  const db = (parsed.options.db as string | undefined) ?? io.env.WAITLIST_DB ?? './data/waitlist.db';
  // Refused before anything runs: a mistyped URL is no folder to create, and no server to start.
  storeLocation(db);
  return command.run(parsed.options, { db, env: io.env, stdout: io.stdout });
}

/** What went wrong, as the command line says it: the option it concerns, the value that fixes it. */
interface Failure {
  code: string;
  message: string;
  field?: string | undefined;
  remedy?: string | undefined;
}

/** Prints `failure` as docs/command-line.md#commands's JSON error; resolves to the exit code: 2 for a usage error, 1 otherwise. */
function printFailure(io: CliIo, failure: Failure): number {
  const usage = ['usage_error', 'invalid_request'].includes(failure.code);
  const option = failure.field === undefined ? undefined : `--${failure.field.replaceAll('_', '-')}`;
  const message =
    option === undefined
      ? failure.message
      : failure.remedy === undefined
        ? `${option}: ${failure.message}`
        : `${failure.message} (${option} ${JSON.stringify(failure.remedy)})`;
  io.stderr(`${JSON.stringify({ error: { code: usage ? 'usage_error' : failure.code, message } })}\n`);
  return usage ? 2 : 1;
}

/** Runs one command; resolves to the process exit code. */
export async function runCommandLine(argv: readonly string[], io: CliIo): Promise<number> {
  try {
    const answer = await dispatch(argv, io);
    if (!answer.ok) return printFailure(io, answer.refusal);
    if (answer.value !== undefined) io.stdout(`${JSON.stringify(answer.value)}\n`);
    return 0;
  } catch (error) {
    // Not refusals: options that do not parse, settings of the environment, the database away, bugs.
    if (error instanceof UsageError) return printFailure(io, { code: 'usage_error', message: error.message });
    if (error instanceof DomainError) return printFailure(io, error);
    const message = error instanceof Error ? error.message : String(error);
    return printFailure(io, { code: 'internal_error', message });
  }
}
