/**
 * Narrowing of the answer shapes of the public endpoints. Hand-written rather than the
 * protocol's zod schemas, which would add kilobytes to the script tag; typed by the protocol's
 * inferred types so a contract change breaks the build here.
 */
import {
  type AcceptedSignup,
  type ChallengeRequired,
  type ErrorBody,
  FIELD_KEY_PATTERN,
  type FieldDefinition,
} from '@waitlistkit/protocol';

type Loose = Record<string, unknown>;

const isObject = (value: unknown): value is Loose => typeof value === 'object' && value !== null;
const strings = (value: Loose, ...keys: string[]) => keys.every((key) => typeof value[key] === 'string');
const intIn = (value: unknown, min: number, max: number) =>
  Number.isInteger(value) && (value as number) >= min && (value as number) <= max;

export function asAccepted(body: unknown): AcceptedSignup | undefined {
  return isObject(body) &&
    body.status === 'accepted' &&
    strings(body, 'status_token', 'referral_code', 'status_url')
    ? (body as AcceptedSignup)
    : undefined;
}

export function asChallengeRequired(body: unknown): ChallengeRequired | undefined {
  if (!isObject(body) || body.status !== 'challenge_required') return undefined;
  const { challenge: c, pow: p } = body;
  const ok =
    body.gate === 'challenge'
      ? // A minimum age beyond the token's 10-minute life could never be met.
        isObject(c) && strings(c, 'token') && intIn(c.min_age_ms, 0, 600_000)
      : body.gate === 'pow' &&
        isObject(p) &&
        strings(p, 'nonce') &&
        (p.nonce as string).length <= 256 &&
        intIn(p.difficulty, 1, 32);
  return ok ? (body as ChallengeRequired) : undefined;
}

/** The `{error: {code, message}}` of a non-2xx answer, when the body is one. */
export function asErrorBody(body: unknown): ErrorBody['error'] | undefined {
  const error = isObject(body) && body.error;
  return isObject(error) && strings(error, 'code', 'message') ? (error as ErrorBody['error']) : undefined;
}

/**
 * The fields of a form description (docs/endpoints.md#the-form), when the body is one. Only what
 * rendering relies on is checked (a key fit for an element id, a select's list of options); the
 * texts are rendered as text, and `checkFieldValues` judges the answers.
 */
export function asFormFields(body: unknown): FieldDefinition[] | undefined {
  const fields = isObject(body) && body.fields;
  return Array.isArray(fields) &&
    fields.every(
      (field) =>
        isObject(field) &&
        strings(field, 'key') &&
        FIELD_KEY_PATTERN.test(field.key as string) &&
        (field.type !== 'select' || Array.isArray(field.options)),
    )
    ? fields
    : undefined;
}
