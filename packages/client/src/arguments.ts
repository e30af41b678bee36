/**
 * The names in each method's parameters and options, checked before anything is sent.
 *
 * An object argument takes any key, so a name in the wrong place or misspelt is silently
 * dropped: `list(id, { signal })` lists without the signal, `create(id, { email, referralCode })`
 * signs up without the referral. TypeScript catches some of these, but not in JavaScript, not
 * through spreads or casts, and not an object built elsewhere. So an unknown name is a
 * `TypeError`, and the message says where the name belongs when it belongs somewhere.
 */
import type { PostRequestOptions, RequestOptions } from './types.js';

const REQUEST_OPTIONS: ReadonlyArray<keyof RequestOptions> = ['signal', 'timeout', 'maxRetries'];
const POST_OPTIONS: ReadonlyArray<keyof PostRequestOptions> = [...REQUEST_OPTIONS, 'idempotencyKey'];

export interface Signature {
  /** The method's name; messages start `<area>.<method>:`. */
  method: string;
  /** What the method is reached through: `subscribers` (the default), or `client` for `client.stats`. */
  area?: 'subscribers' | 'client';
  /** The names its parameters object (the second argument) takes; `undefined` when it has none. */
  params?: readonly string[];
  /** Whether the method POSTs, and so takes `idempotencyKey`. */
  post?: boolean;
  /** Names a caller might expect that are not parameters, with the reason. */
  notParams?: Readonly<Record<string, string>>;
}

function describe(value: unknown): string {
  if (value === null || value === undefined) return String(value);
  if (Array.isArray(value)) return 'an array';
  const type = typeof value;
  return /^[aeiou]/.test(type) ? `an ${type}` : `a ${type}`;
}

function isObject(value: unknown): value is object {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const quoted = (names: readonly string[]) => names.map((name) => `\`${name}\``).join(', ');

// `referralCode` for `referral_code`, `maxretries` for `maxRetries`: one name in another style.
const loose = (name: string) => name.replaceAll('_', '').toLowerCase();

function unknown(kind: 'parameter' | 'option', name: string, known: readonly string[]): string {
  const meant = known.find((candidate) => loose(candidate) === loose(name));
  if (meant !== undefined) return `unknown ${kind} \`${name}\`; did you mean \`${meant}\`?`;
  if (known.length === 0) return `unknown ${kind} \`${name}\`; it takes none.`;
  return `unknown ${kind} \`${name}\`; the ${kind}s are ${quoted(known)}.`;
}

const POST_ONLY = '`idempotencyKey` applies only to create and admit, the methods that POST.';

function checkParams(signature: Signature, known: readonly string[], params: unknown): void {
  const prefix = `${signature.area ?? 'subscribers'}.${signature.method}:`;
  if (!isObject(params)) {
    throw new TypeError(
      `${prefix} the parameters (second argument) must be an object, not ${describe(params)}.`,
    );
  }
  const options: readonly string[] = signature.post ? POST_OPTIONS : REQUEST_OPTIONS;
  for (const name of Object.keys(params)) {
    if (known.includes(name)) continue;
    const why = signature.notParams?.[name];
    if (why !== undefined) throw new TypeError(`${prefix} \`${name}\` is not a parameter: ${why}`);
    if (options.includes(name)) {
      throw new TypeError(`${prefix} \`${name}\` is an option: pass it as the third argument.`);
    }
    if (name === 'idempotencyKey') throw new TypeError(`${prefix} ${POST_ONLY}`);
    throw new TypeError(`${prefix} ${unknown('parameter', name, known)}`);
  }
}

function checkOptionNames(signature: Signature, options: unknown): void {
  const prefix = `${signature.area ?? 'subscribers'}.${signature.method}:`;
  if (options === undefined) return;
  if (!isObject(options)) {
    throw new TypeError(
      `${prefix} the options (third argument) must be an object, not ${describe(options)}.`,
    );
  }
  const known: readonly string[] = signature.post ? POST_OPTIONS : REQUEST_OPTIONS;
  for (const name of Object.keys(options)) {
    if (known.includes(name)) continue;
    if (signature.params?.includes(name)) {
      throw new TypeError(`${prefix} \`${name}\` is a parameter: pass it as the second argument.`);
    }
    if (name === 'idempotencyKey') throw new TypeError(`${prefix} ${POST_ONLY}`);
    throw new TypeError(`${prefix} ${unknown('option', name, known)}`);
  }
}

/** Throws a `TypeError` naming the first name that is not the method's, and where it belongs. */
export function checkArguments(signature: Signature, params: unknown, options: unknown): void {
  if (signature.params !== undefined) checkParams(signature, signature.params, params);
  checkOptionNames(signature, options);
}
