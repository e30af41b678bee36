/**
 * Turning untrusted input into typed values or a contract error body (docs/protocol.md#errors). The server answers
 * with these bodies as they are; clients use the same messages for their own validation.
 */
import type * as z from 'zod/mini';
import {
  ErrorCode,
  IDEMPOTENCY_KEY_PATTERN,
  LIMIT_DEFAULT,
  LIMIT_MAX,
  PAGE_DEFAULT,
  SubscriberStatus,
} from './constants.js';
import { checkEmail } from './email.js';
import {
  AdmissionsBodySchema,
  type ApiCreateSubscriberBody,
  ApiCreateSubscriberBodySchema,
  GatesBodySchema,
  ListQuerySchema,
  type PublicSubscribeBody,
  PublicSubscribeBodySchema,
  type StatsQuery,
  StatsQuerySchema,
  type ViewBody,
  ViewBodySchema,
} from './schemas.js';

export interface ProblemBody {
  code: ErrorCode;
  message: string;
}

export type Parsed<T> = { ok: true; value: T } | { ok: false; error: ProblemBody };

type Issue = z.core.$ZodIssue;

const article = (noun: string) => `${/^[aeiou]/.test(noun) ? 'an' : 'a'} ${noun}`;

function describeInput(input: unknown): string {
  if (input === null) return 'null';
  return article(Array.isArray(input) ? 'array' : typeof input);
}

/** One sentence naming the field and what was wrong with it. */
export function describeIssue(issue: Issue): string {
  const where = issue.path.length === 0 ? 'The body' : `\`${issue.path.join('.')}\``;
  switch (issue.code) {
    case 'invalid_type': {
      if (issue.input === undefined) return `${where} is required.`;
      if (issue.expected === 'string' && Array.isArray(issue.input)) {
        return `${where} must be given once.`;
      }
      const expected = article(
        issue.expected === 'int' ? 'integer' : issue.expected === 'record' ? 'object' : issue.expected,
      );
      return `${where} must be ${expected}, not ${describeInput(issue.input)}.`;
    }
    case 'too_big':
      return issue.origin === 'string'
        ? `${where} must be at most ${issue.maximum} characters long.`
        : `${where} must be at most ${issue.maximum}.`;
    case 'too_small':
      return issue.origin === 'string'
        ? `${where} must be at least ${issue.minimum} characters long.`
        : `${where} must be at least ${issue.minimum}.`;
    case 'invalid_value':
      return `${where} must be one of ${issue.values.map((v) => JSON.stringify(v)).join(', ')}.`;
    case 'invalid_union': {
      // A discriminated union (a webhook event's `type`, a 428's `gate`) reports a missing or
      // unknown discriminator at the discriminator's own path, with the values it knows.
      if ('options' in issue && issue.options !== undefined && issue.discriminator !== undefined) {
        // The input is the whole object, there only when parsed with `reportInput`.
        const input = issue.input;
        if (typeof input === 'object' && input !== null) {
          if ((input as Record<string, unknown>)[issue.discriminator] === undefined)
            return `${where} is required.`;
        }
        return `${where} must be one of ${issue.options.map((v) => JSON.stringify(v)).join(', ')}.`;
      }
      // A plain union (a field's answer: a string or a boolean) names the types it takes.
      const expected = issue.errors.flat().flatMap((e) => (e.code === 'invalid_type' ? [e.expected] : []));
      if (expected.length === issue.errors.length)
        return `${where} must be ${expected.map(article).join(' or ')}, not ${describeInput(issue.input)}.`;
      return `${where} is invalid.`;
    }
    case 'custom':
    case 'invalid_format':
      // Our own format checks carry a predicate ("must be …"); zod's defaults say nothing useful.
      return issue.message.startsWith('must ')
        ? `${where} ${issue.message}.`
        : `${where} has an invalid format.`;
    case 'unrecognized_keys':
      return `${where} must not have ${issue.keys.map((k) => `\`${k}\``).join(', ')}.`;
    default:
      return `${where} is invalid.`;
  }
}

/** Validates `input` against `schema`; a failure names the first offending field. */
export function parseWith<S extends z.ZodMiniType>(schema: S, input: unknown): Parsed<z.output<S>> {
  const result = schema.safeParse(input, { reportInput: true });
  if (result.success) return { ok: true, value: result.data };
  const issue = result.error.issues[0] as Issue;
  return { ok: false, error: { code: ErrorCode.invalidRequest, message: describeIssue(issue) } };
}

export type SignupInput<B> = Omit<B, 'email'> & {
  /** Trimmed address, case preserved: what is stored and listed. */
  email: string;
  /** Key duplicates are found by (docs/subscribers.md#email-addresses). */
  normalized_email: string;
  /** ASCII domain, for the MX check and blocklist. */
  email_domain: string;
};

function parseSignup<B extends { email: string }>(
  schema: z.ZodMiniType<B>,
  body: unknown,
): Parsed<SignupInput<B>> {
  const parsed = parseWith(schema, body);
  if (!parsed.ok) return parsed;
  const email = checkEmail(parsed.value.email);
  if (!email.ok) return { ok: false, error: { code: ErrorCode.invalidEmail, message: email.reason } };
  return {
    ok: true,
    value: {
      ...parsed.value,
      email: email.email,
      normalized_email: email.normalized,
      email_domain: email.domain,
    },
  };
}

export function parseApiCreateBody(body: unknown): Parsed<SignupInput<ApiCreateSubscriberBody>> {
  const parsed = parseSignup(ApiCreateSubscriberBodySchema, body);
  if (parsed.ok && parsed.value.client_country !== undefined) {
    parsed.value.client_country = parsed.value.client_country.toUpperCase();
  }
  return parsed;
}

export function parsePublicSubscribeBody(body: unknown): Parsed<SignupInput<PublicSubscribeBody>> {
  return parseSignup(PublicSubscribeBodySchema, body);
}

/** `POST .../gates` takes the empty object and nothing else (docs/gates.md#gates-before-the-submit). */
export function parseGatesBody(body: unknown): Parsed<Record<string, never>> {
  return parseWith(GatesBodySchema, body);
}

/** `POST .../views` takes `{}` or `{"source": {…}}` (docs/insights.md#views). */
export function parseViewBody(body: unknown): Parsed<ViewBody> {
  return parseWith(ViewBodySchema, body);
}

/** The stats endpoint's `from` and `to`, each a `YYYY-MM-DD` given at most once. */
export function parseStatsQuery(query: unknown): Parsed<StatsQuery> {
  return parseWith(StatsQuerySchema, query);
}

export interface ListQuery {
  page: number;
  limit: number;
  q: string;
  status: SubscriberStatus;
  /** Only this channel (docs/subscribers.md#attribution); '' for every channel. */
  channel: string;
}

/** The list query with defaults applied and `limit` clamped to the maximum. */
export function parseListQuery(query: unknown): Parsed<ListQuery> {
  const parsed = parseWith(ListQuerySchema, query);
  if (!parsed.ok) return parsed;
  const { page, limit, q, status, channel } = parsed.value;
  return {
    ok: true,
    value: {
      page: page ?? PAGE_DEFAULT,
      limit: Math.min(limit ?? LIMIT_DEFAULT, LIMIT_MAX),
      q: q ?? '',
      status: status ?? SubscriberStatus.waiting,
      channel: channel ?? '',
    },
  };
}

export type Admission = { count: number } | { subscriberIds: string[] };

/** The admissions body: exactly one of `count` and `subscriber_ids`; ids deduplicated. */
export function parseAdmissionsBody(body: unknown): Parsed<Admission> {
  const parsed = parseWith(AdmissionsBodySchema, body);
  if (!parsed.ok) return parsed;
  const { count, subscriber_ids: ids } = parsed.value;
  if ((count === undefined) === (ids === undefined)) {
    return {
      ok: false,
      error: { code: ErrorCode.invalidRequest, message: 'Give exactly one of `count` and `subscriber_ids`.' },
    };
  }
  return { ok: true, value: count !== undefined ? { count } : { subscriberIds: [...new Set(ids)] } };
}

/** An `Idempotency-Key` header value, or the reason it is not one (docs/protocol.md#idempotency-key). */
export function parseIdempotencyKey(value: string | undefined): Parsed<string | undefined> {
  if (value === undefined) return { ok: true, value: undefined };
  if (IDEMPOTENCY_KEY_PATTERN.test(value)) return { ok: true, value };
  return {
    ok: false,
    error: {
      code: ErrorCode.invalidRequest,
      message: 'The Idempotency-Key header must be 1 to 255 printable ASCII characters.',
    },
  };
}
