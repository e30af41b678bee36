/**
 * Command-line options: declaration, parsing and conversion, with no I/O. Every failure is a
 * `UsageError` whose message names the option and says what a good value looks like.
 */

export class UsageError extends Error {
  readonly code = 'usage_error';
}

interface BaseOption {
  name: string;
  description: string;
  required?: boolean;
}

/** A `clearable` string takes an empty value: a setting set back to none, not a mistake. */
export type OptionSpec = BaseOption &
  (
    | { kind: 'string'; placeholder: string; maxLength?: number; clearable?: boolean }
    | { kind: 'int'; placeholder?: string; min: number; max: number }
    | { kind: 'switch' }
    | { kind: 'enum'; values: readonly string[]; placeholder?: string }
    | { kind: 'list'; placeholder: string; item: (value: string) => string }
    | { kind: 'url' }
    | { kind: 'flag' }
  );

export type OptionValue = string | number | boolean | string[];
export type ParsedOptions = Record<string, OptionValue>;

export function placeholder(spec: OptionSpec): string {
  switch (spec.kind) {
    case 'string':
    case 'list':
      return spec.placeholder;
    case 'int':
      return spec.placeholder ?? 'N';
    case 'switch':
      return 'on|off';
    case 'enum':
      return spec.placeholder ?? spec.values.join('|');
    case 'url':
      return 'URL';
    case 'flag':
      return '';
  }
}

function convert(spec: OptionSpec, raw: string): OptionValue {
  const option = `--${spec.name}`;
  switch (spec.kind) {
    case 'string': {
      const value = raw.trim();
      if (value === '' && !spec.clearable) throw new UsageError(`${option} must not be empty.`);
      const max = spec.maxLength ?? 200;
      if (value.length > max) throw new UsageError(`${option} must be at most ${max} characters long.`);
      return value;
    }
    case 'int': {
      const value = /^-?\d{1,15}$/.test(raw) ? Number(raw) : Number.NaN;
      if (!Number.isSafeInteger(value) || value < spec.min || value > spec.max) {
        throw new UsageError(
          `${option} must be a whole number from ${spec.min} to ${spec.max}, not ${JSON.stringify(raw)}.`,
        );
      }
      return value;
    }
    case 'switch':
      if (raw !== 'on' && raw !== 'off') {
        throw new UsageError(`${option} must be "on" or "off", not ${JSON.stringify(raw)}.`);
      }
      return raw === 'on';
    case 'enum':
      if (!spec.values.includes(raw)) {
        throw new UsageError(
          `${option} must be one of ${spec.values.join(', ')}, not ${JSON.stringify(raw)}.`,
        );
      }
      return raw;
    case 'list': {
      const items = raw
        .split(',')
        .map((s) => s.trim())
        .filter((s) => s !== '');
      try {
        return [...new Set(items.map(spec.item))];
      } catch (error) {
        throw new UsageError(`${option}: ${(error as Error).message}`);
      }
    }
    case 'url': {
      let url: URL | undefined;
      try {
        url = new URL(raw);
      } catch {
        url = undefined;
      }
      if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:')) {
        throw new UsageError(`${option} must be an http(s) URL, not ${JSON.stringify(raw)}.`);
      }
      return url.href.replace(/\/$/, '');
    }
    case 'flag':
      throw new UsageError(`${option} takes no value.`);
  }
}

export interface ParsedArgs {
  help: boolean;
  options: ParsedOptions;
}

/** Parses `--name value`, `--name=value` and flags against `specs`; rejects anything else. */
export function parseOptions(argv: readonly string[], specs: readonly OptionSpec[]): ParsedArgs {
  const byName = new Map(specs.map((spec) => [spec.name, spec]));
  const options: ParsedOptions = {};
  let help = false;
  for (let i = 0; i < argv.length; i++) {
    const token = argv[i] as string;
    if (token === '--help' || token === '-h') {
      help = true;
      continue;
    }
    if (!token.startsWith('--') || token === '--') {
      throw new UsageError(`Unexpected argument ${JSON.stringify(token)}: options are written --name value.`);
    }
    const eq = token.indexOf('=');
    const name = token.slice(2, eq < 0 ? undefined : eq);
    const spec = byName.get(name);
    if (!spec) {
      const known = specs.map((s) => `--${s.name}`).join(', ');
      throw new UsageError(`Unknown option --${name}. Options here: ${known || 'none'}.`);
    }
    if (name in options) throw new UsageError(`--${name} is given more than once.`);
    if (spec.kind === 'flag') {
      if (eq >= 0) throw new UsageError(`--${name} takes no value.`);
      options[name] = true;
      continue;
    }
    let raw: string | undefined;
    if (eq >= 0) raw = token.slice(eq + 1);
    else {
      raw = argv[i + 1];
      if (raw === undefined || raw.startsWith('--')) {
        throw new UsageError(`--${name} needs a value (${placeholder(spec)}).`);
      }
      i++;
    }
    options[name] = convert(spec, raw);
  }
  if (!help) {
    const missing = specs.filter((spec) => spec.required && !(spec.name in options));
    if (missing.length > 0) {
      throw new UsageError(`Missing ${missing.map((s) => `--${s.name}`).join(', ')}.`);
    }
  }
  return { help, options };
}

/** `parse(raw)`, its error a usage error naming the option. */
export function parsedBy<T>(option: string, parse: (raw: string) => T, raw: string): T {
  try {
    return parse(raw);
  } catch (error) {
    throw new UsageError(`${option}: ${(error as Error).message}`);
  }
}
