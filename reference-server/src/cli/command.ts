/**
 * What a command of the command line is, and what the commands share: their options' shapes,
 * and the use cases on the command's database. A command's `run` only translates parsed options
 * into use case calls; what it answers, or why not, the door prints in one place (main.ts).
 */
import { systemClock } from '../adapters/clock.js';
import { type Acting, actingAs, type Base, type Named, type Scope, scopeOf } from '../app/guard.js';
import { ok, type Result } from '../app/refusal.js';
import { type OperatorServices, openStore, operatorServices, webhookPolicy } from '../container.js';
import type { OptionSpec, ParsedOptions } from './options.js';

export interface CommandContext {
  /** The SQLite file, or the PostgreSQL URL. */
  db: string;
  env: Record<string, string | undefined>;
  /** Where `serve` writes its logs and the demo's one-time credentials, and lists of any length go. */
  stdout: (text: string) => void;
}

export interface Command {
  name: string;
  summary: string;
  options: OptionSpec[];
  /**
   * The JSON value to print on stdout (undefined when the command printed its output itself:
   * `serve`, which resolves when it has shut down, and lists of any length), or the refusal.
   */
  run(options: ParsedOptions, context: CommandContext): Promise<Result<unknown>>;
}

export const idOption = (name: string, what: string, prefix: string): OptionSpec => ({
  name,
  kind: 'string',
  placeholder: `${prefix}…`,
  required: true,
  maxLength: 64,
  description: `id of the ${what}`,
});

export const str = (o: ParsedOptions, name: string) => o[name] as string;
export const optionalStr = (o: ParsedOptions, name: string) => o[name] as string | undefined;

/** Runs `fn` with the use cases on the command's database, closing it afterwards. */
export async function withServices<T>(
  context: CommandContext,
  fn: (services: OperatorServices, base: Base) => Promise<T>,
): Promise<T> {
  const store = await openStore(context.db, { oneShot: true });
  try {
    const appUrl = context.env.APP_URL ?? context.env.BASE_URL;
    const services = operatorServices(store, systemClock, {
      policy: webhookPolicy(context.env),
      ...(appUrl ? { urls: { appUrl } } : {}),
    });
    return await fn(services, { store, clock: systemClock });
  } finally {
    await store.close();
  }
}

/** Runs `fn` as the operator `--operator` names (not found when there is none). */
export function asOperator(
  o: ParsedOptions,
  context: CommandContext,
  fn: (services: OperatorServices, who: Acting) => Promise<Result<unknown>>,
): Promise<Result<unknown>> {
  return withServices(context, async (services, base) => {
    const who = await actingAs(base, str(o, 'operator'));
    return who.ok ? fn(services, who.value) : who;
  });
}

/** Runs `fn` in the tenant the command names, or that of the record it names (not found when there is none). */
export function inScope(
  named: Named,
  context: CommandContext,
  fn: (services: OperatorServices, scope: Scope) => Promise<Result<unknown>>,
): Promise<Result<unknown>> {
  return withServices(context, async (services, base) => {
    const scope = await scopeOf(base, named);
    return scope.ok ? fn(services, scope.value) : scope;
  });
}

/** `result`'s value as the command shows it, or its refusal as it is. */
export function shown<T>(result: Result<T>, show: (value: T) => unknown): Result<unknown> {
  return result.ok ? ok(show(result.value)) : result;
}
