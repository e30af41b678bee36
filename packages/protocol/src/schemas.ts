/**
 * The wire format of both API areas. Every body, query, response and error of the service is
 * defined here once; types are inferred, servers and clients validate with these schemas, and
 * the OpenAPI document is generated from them. Built on zod/mini so browser bundles stay small.
 */
import * as z from 'zod/mini';
import { SOURCE_VALUE_MAX, SourceSchema } from './attribution.js';
import {
  ADMISSION_MAX,
  ERROR_CODES,
  Gate,
  LIMIT_MAX,
  QUERY_MAX_LENGTH,
  SUBSCRIBER_STATUSES,
  WebhookEventType,
} from './constants.js';
import { FieldDefinitionsSchema } from './fields.js';
import { LANGUAGES } from './languages.js';
import { POW_MAX_DIFFICULTY, POW_NONCE_MAX_LENGTH } from './pow.js';

export interface SchemaDoc {
  id?: string;
  title?: string;
  description?: string;
  examples?: unknown[];
}

/** Documentation of the schemas below, read by the OpenAPI generator. */
export const docs = z.registry<SchemaDoc>();

function doc<T extends z.ZodMiniType>(schema: T, meta: SchemaDoc): T {
  docs.add(schema, meta);
  return schema;
}

const int = (min: number, max?: number) =>
  max === undefined ? z.int().check(z.minimum(min)) : z.int().check(z.minimum(min), z.maximum(max));

// ---------------------------------------------------------------- shared pieces

export const ErrorBodySchema = doc(
  z.object({
    error: z.object({
      code: doc(z.enum(ERROR_CODES), { description: 'Stable machine code.' }),
      message: doc(z.string(), {
        description: 'Human text. For `insufficient_scope` it names the missing scope.',
      }),
    }),
  }),
  { id: 'ErrorBody', description: 'Body of every non-2xx JSON response except 428.' },
);
export type ErrorBody = z.infer<typeof ErrorBodySchema>;

export const AcceptedSignupSchema = doc(
  z.object({
    status: z.literal('accepted'),
    status_token: doc(z.string(), {
      description:
        'Capability token for the hosted status page. Empty when referrals are off. Identical for a re-signup.',
    }),
    referral_code: doc(z.string(), {
      description: 'Code of the signed-up subscriber. Empty when referrals are off.',
    }),
    status_url: doc(z.string(), {
      description: '{app_url}/s/<status_token>. Empty when referrals are off.',
    }),
  }),
  {
    id: 'AcceptedSignup',
    description: 'Answer of both create endpoints. A re-signup of the same email returns the identical body.',
  },
);
export type AcceptedSignup = z.infer<typeof AcceptedSignupSchema>;

export const ChallengeGateSchema = doc(
  z.object({
    status: z.literal('challenge_required'),
    gate: z.literal(Gate.challenge),
    challenge: z.object({
      token: doc(z.string(), { description: 'Signed token to send back as `challenge_token`.' }),
      min_age_ms: doc(int(0), {
        description: 'Milliseconds to wait after receiving the token before sending it back.',
      }),
    }),
  }),
  { id: 'ChallengeGate', description: 'Wait `min_age_ms`, then resend with `challenge_token`.' },
);

export const PowGateSchema = doc(
  z.object({
    status: z.literal('challenge_required'),
    gate: z.literal(Gate.pow),
    pow: z.object({
      nonce: doc(z.string(), { description: 'Opaque nonce to solve and send back.' }),
      difficulty: doc(int(1, POW_MAX_DIFFICULTY), {
        description: 'Leading zero bits required of SHA-256(nonce + ":" + solution), solution in decimal.',
      }),
    }),
  }),
  { id: 'PowGate', description: 'Solve the Proof of Work, then resend with `pow`.' },
);

export const ChallengeRequiredSchema = doc(
  z.discriminatedUnion('gate', [ChallengeGateSchema, PowGateSchema]),
  { id: 'ChallengeRequired', description: 'Body of a 428 answer of the public endpoint.' },
);
export type ChallengeRequired = z.infer<typeof ChallengeRequiredSchema>;
export type ChallengeGate = z.infer<typeof ChallengeGateSchema>;
export type PowGate = z.infer<typeof PowGateSchema>;

export const GatesBodySchema = doc(z.strictObject({}), {
  id: 'GatesBody',
  description: 'Body of `POST .../gates`: an empty object; any member is a 400 `invalid_request`.',
});

export const GatesResponseSchema = doc(
  z.object({
    challenge: z.optional(ChallengeGateSchema.shape.challenge),
    pow: z.optional(PowGateSchema.shape.pow),
  }),
  {
    id: 'GatesResponse',
    description:
      'What the waitlist requires before the submit (docs/gates.md#gates-before-the-submit): a Challenge token and a Proof of Work nonce, each present only when that gate is on; `{}` when none is. Send the sign-up with `challenge_token` (once `min_age_ms` have passed) and `pow` on its first request.',
  },
);
export type GatesResponse = z.infer<typeof GatesResponseSchema>;

// ---------------------------------------------------------------- fields and attribution

/** A sign-up's answers by key: a string for `text` and `select`, a boolean for `checkbox`. */
function fieldValues() {
  return z.record(z.string(), z.union([z.string(), z.boolean()]));
}

const fieldsInput = doc(fieldValues(), {
  description:
    "Answers to the waitlist's fields by key (docs/subscribers.md#fields). An unknown key, a missing required field, or a value of the wrong type or outside `options` is a 400 `invalid_request` naming the key. Kept from the first sign-up only.",
});

const sourceInput = doc(z.strictObject(SourceSchema.shape), {
  description: `Where the sign-up came from (docs/subscribers.md#attribution): each value at most ${SOURCE_VALUE_MAX} characters; \`referrer\` and \`landing\` http(s) addresses, kept as origin and path. Any other key is a 400. Kept from the first sign-up only.`,
});

const langInput = doc(z.enum(LANGUAGES), {
  description:
    'The language of the person signing up (docs/languages.md#what-a-sign-up-records): one of the supported tags exactly, as `pickLanguage` of `@waitlistkit/protocol` gives it (match a region tag such as `pt-BR` to `pt` first). Any other value is a 400 `invalid_request` naming `lang`. Kept from the first sign-up only.',
  examples: ['pt'],
});

export const FieldDefinitionsDocSchema = doc(FieldDefinitionsSchema, {
  id: 'FieldDefinitions',
  description:
    "A waitlist's fields in the order the form shows them (at most 10, keys unique): `{key, label, type, required, options?}`.",
});

export const FormSchema = doc(z.object({ fields: FieldDefinitionsDocSchema }), {
  id: 'Form',
  description:
    'Answer of `GET /v1/public/waitlists/{waitlist_id}/form`: what the widget asks besides the address (docs/endpoints.md#the-form).',
});

// ---------------------------------------------------------------- customer API

export const SubscriberSchema = doc(
  z.object({
    id: doc(z.string(), { description: 'Stable id of the subscriber.' }),
    email: doc(z.string(), { description: 'Case preserved as submitted.' }),
    joined_at: doc(z.iso.datetime({ offset: true }), { description: 'RFC 3339 timestamp.' }),
    position: doc(z.nullable(int(1)), {
      description:
        'Current place in line among waiting subscribers, computed at request time (referral boost included); null once admitted.',
    }),
    referral_code: doc(z.string(), {
      description: '6-character code; empty when referrals are off on the waitlist.',
    }),
    referral_count: doc(int(0), {
      description: "Number of other subscribers credited to this subscriber's code.",
    }),
    status: doc(z.enum(SUBSCRIBER_STATUSES), {
      description: '`waiting` (in line) or `admitted` (let in, out of the line).',
    }),
    admitted_at: doc(z.nullable(z.iso.datetime({ offset: true })), {
      description: 'RFC 3339 time of the admission; null while waiting.',
    }),
    confirmed: doc(z.boolean(), {
      description:
        'Whether the email address is confirmed; always true when the waitlist does not confirm emails.',
    }),
    fields: doc(fieldValues(), {
      description:
        'The answers given at sign-up to the fields the waitlist defines now, by key (docs/subscribers.md#fields); `{}` when none. An answer kept for a field since removed shows again if the key is defined again.',
    }),
    source: doc(z.strictObject(SourceSchema.shape), {
      description:
        'Where the sign-up came from, as kept at the first sign-up (docs/subscribers.md#attribution): only the keys given; `{}` when none.',
    }),
    channel: doc(z.string(), {
      description:
        '`referral` (credited to a referrer), else `utm_source`, else the referring host when it is not the landing host, else `direct`. Derived when asked.',
    }),
    unsubscribed: doc(z.boolean(), {
      description:
        'Whether the subscriber unsubscribed from the welcome and referral messages (docs/messages.md#unsubscribe); the admitted message and the confirmation mail still go.',
    }),
    lang: doc(z.nullable(z.enum(LANGUAGES)), {
      description:
        "The language recorded at the first sign-up (docs/languages.md#what-a-sign-up-records); null when none was given (then pages and mails use the waitlist's `default_lang`).",
    }),
  }),
  { id: 'Subscriber' },
);
export type Subscriber = z.infer<typeof SubscriberSchema>;

export const ListPageSchema = doc(
  z.object({
    items: z.array(SubscriberSchema),
    total: doc(int(0), { description: 'Number of matching subscribers.' }),
    page: doc(int(1), { description: 'Page returned, 1-indexed.' }),
    limit: doc(int(1, LIMIT_MAX), { description: 'Page size applied.' }),
  }),
  { id: 'ListPage', description: 'One page of subscribers, ordered by position.' },
);
export type ListPage = z.infer<typeof ListPageSchema>;

/** A query integer: strict decimal text on the wire (no signs, exponents or spaces), a number in code. */
const queryInteger = (description: string) =>
  doc(
    z.codec(z.string().check(z.regex(/^[1-9][0-9]{0,8}$/, 'must be a whole number from 1')), int(1), {
      decode: Number,
      encode: String,
    }),
    { description },
  );

/** Query of the list endpoint; `parseListQuery` applies the defaults and the clamp. */
export const ListQuerySchema = z.object({
  page: z.optional(queryInteger('Page to return, 1-indexed; default 1.')),
  limit: z.optional(
    queryInteger(`Page size, default 25; values above ${LIMIT_MAX} are clamped to ${LIMIT_MAX}.`),
  ),
  q: z.optional(
    doc(z.string().check(z.maxLength(QUERY_MAX_LENGTH)), {
      description: 'Case-insensitive literal substring of the email address (`%` and `_` match themselves).',
    }),
  ),
  status: z.optional(
    doc(z.enum(SUBSCRIBER_STATUSES), {
      description:
        '`waiting` (default: the line, by position) or `admitted` (those let in, newest admission first).',
    }),
  ),
  channel: z.optional(
    doc(z.string().check(z.minLength(1), z.maxLength(SOURCE_VALUE_MAX)), {
      description:
        'Only subscribers of this channel: `referral`, `direct`, a `utm_source` value or a referring host (docs/subscribers.md#attribution).',
    }),
  ),
});
export type ListQueryInput = z.infer<typeof ListQuerySchema>;

export const AdmissionsBodySchema = doc(
  z.object({
    count: z.optional(
      doc(int(1, ADMISSION_MAX), { description: 'Admit the first `count` waiting subscribers by position.' }),
    ),
    subscriber_ids: z.optional(
      doc(z.array(z.string().check(z.maxLength(64))).check(z.minLength(1), z.maxLength(ADMISSION_MAX)), {
        description: 'Admit exactly these; unknown or already admitted ids are skipped.',
      }),
    ),
  }),
  { id: 'AdmissionsBody', description: 'Exactly one of `count` and `subscriber_ids`.' },
);
export type AdmissionsBody = z.infer<typeof AdmissionsBodySchema>;

export const AdmissionsResultSchema = doc(z.object({ items: z.array(SubscriberSchema) }), {
  id: 'Admissions',
  description: 'The subscribers this request admitted, in the order they were let in.',
});
export type AdmissionsResult = z.infer<typeof AdmissionsResultSchema>;

// ---------------------------------------------------------------- insights (docs/insights.md#stats)

const statsDate = (description: string) =>
  doc(z.string().check(z.regex(/^\d{4}-\d{2}-\d{2}$/, 'must be a date written YYYY-MM-DD')), {
    description,
    examples: ['2026-03-01'],
  });

/** Query of the stats endpoint; the server then checks the range (calendar days, at most 366). */
export const StatsQuerySchema = z.object({
  from: z.optional(statsDate('First UTC day, included; default the 30 days up to `to`.')),
  to: z.optional(statsDate('Last UTC day, included; default today (UTC).')),
});
export type StatsQuery = z.infer<typeof StatsQuerySchema>;

const count = (description: string) => doc(int(0), { description });
const share = (description: string) => doc(z.nullable(z.number().check(z.minimum(0))), { description });

export const StatsSchema = doc(
  z.object({
    days: z.array(
      z.object({
        date: doc(z.string(), { description: 'The UTC day, `YYYY-MM-DD`.' }),
        views: count('Views of the form that day.'),
        signups: count('Fresh sign-ups that day (an imported row on its `joined_at`).'),
        confirmed: count('Addresses confirmed that day.'),
        referred: count(
          "Sign-ups of that day credited to a referrer (so far: a credit can come with the address's confirmation).",
        ),
        admitted: count('Subscribers let in that day.'),
      }),
    ),
    channels: z.array(
      z.object({
        channel: doc(z.string(), {
          description:
            '`referral`, `direct`, a `utm_source` value or a referring host (docs/subscribers.md#attribution).',
        }),
        views: count('Views of the form from this channel over the range.'),
        signups: count('Sign-ups from this channel over the range.'),
      }),
    ),
    totals: z.object({
      views: count('Views over the range.'),
      signups: count('Sign-ups over the range.'),
      conversion: share('Sign-ups ÷ views; null without views.'),
      referred_share: share('Sign-ups credited to a referrer ÷ sign-ups; null without sign-ups.'),
      k_factor: share('Referral credits given in the range ÷ sign-ups; null without sign-ups.'),
    }),
  }),
  {
    id: 'Stats',
    description:
      'How the launch is going over a range of UTC days (docs/insights.md#stats): every day of the range, oldest first; the 50 channels with most sign-ups, most first; the totals. Counted as aggregates: erasing a subscriber changes no past day.',
  },
);
export type Stats = z.infer<typeof StatsSchema>;

export const ViewBodySchema = doc(z.strictObject({ source: z.optional(sourceInput) }), {
  id: 'ViewBody',
  description:
    "Body of `POST .../views`: `{}`, or the page's `source` to count the view under its channel. Nothing about the visitor is kept.",
});
export type ViewBody = z.infer<typeof ViewBodySchema>;

const countryCode = doc(
  z.string().check(z.regex(/^[A-Za-z]{2}$/, 'must be a two-letter ISO 3166-1 country code')),
  {
    description: 'ISO 3166-1 alpha-2 country of the visitor, used by the geo gate.',
    examples: ['US'],
  },
);

const emailField = doc(z.string(), {
  description:
    'RFC 5322 addr-spec, normalised server-side. A string that is not a valid address is answered with `invalid_email`.',
  examples: ['ada@example.com'],
});

const referralCodeField = doc(z.string(), {
  description:
    "A subscriber's referral code. Invalid codes and codes of another waitlist are silently ignored.",
});

export const ApiCreateSubscriberBodySchema = doc(
  z.object({
    email: emailField,
    referral_code: z.optional(referralCodeField),
    client_country: z.optional(countryCode),
    fields: z.optional(fieldsInput),
    source: z.optional(sourceInput),
    lang: z.optional(langInput),
  }),
  { id: 'ApiCreateSubscriberBody' },
);
export type ApiCreateSubscriberBody = z.infer<typeof ApiCreateSubscriberBodySchema>;

// ---------------------------------------------------------------- public subscribe

export const PowSolutionSchema = doc(
  z.object({
    nonce: doc(z.string().check(z.maxLength(POW_NONCE_MAX_LENGTH)), {
      description: 'The nonce of the 428 answer.',
    }),
    solution: doc(int(0, Number.MAX_SAFE_INTEGER), {
      description: 'Integer found by the client, 0 ≤ solution < 2^53.',
    }),
  }),
  { id: 'PowSolution' },
);
export type PowSolution = z.infer<typeof PowSolutionSchema>;

export const PublicSubscribeBodySchema = doc(
  z.object({
    email: emailField,
    referral_code: z.optional(referralCodeField),
    challenge_token: z.optional(
      doc(z.string().check(z.maxLength(POW_NONCE_MAX_LENGTH)), {
        description: 'Sent when retrying after a 428 with gate `challenge`.',
      }),
    ),
    pow: z.optional(PowSolutionSchema),
    fields: z.optional(fieldsInput),
    source: z.optional(sourceInput),
    lang: z.optional(langInput),
  }),
  { id: 'PublicSubscribeBody' },
);
export type PublicSubscribeBody = z.infer<typeof PublicSubscribeBodySchema>;

// ---------------------------------------------------------------- webhook events (docs/webhooks.md#events)

const rfc3339 = () => z.iso.datetime({ offset: true });

const waitlistIdField = doc(z.string(), { description: 'Id of the waitlist (`wl_…`).' });

export const WebhookSubscriberSchema = doc(z.extend(SubscriberSchema, { waitlist_id: waitlistIdField }), {
  id: 'WebhookSubscriber',
  description:
    'The subscriber object of the API plus its `waitlist_id`, as it is after the change the event reports. Never holds a status token or a confirmation token.',
});
export type WebhookSubscriber = z.infer<typeof WebhookSubscriberSchema>;

export const DeletedSubscriberSchema = doc(
  z.object({
    id: doc(z.string(), { description: 'Id the erased subscriber had.' }),
    waitlist_id: waitlistIdField,
  }),
  {
    id: 'DeletedSubscriber',
    description: 'What is left of an erased subscriber: its id and waitlist, nothing personal.',
  },
);
export type DeletedSubscriber = z.infer<typeof DeletedSubscriberSchema>;

export const ReferralCreditSchema = doc(
  z.object({
    // No description of its own here: `doc` on the shared schema would overwrite WebhookSubscriber's.
    referrer: WebhookSubscriberSchema,
    subscriber_id: doc(z.string(), {
      description:
        'Id of the new subscriber whose sign-up (or, with confirmation on, confirmation) earned the credit.',
    }),
  }),
  {
    id: 'ReferralCredit',
    description:
      "`referrer`: the subscriber whose code was used, after the credit (its `referral_count` includes it), with its `waitlist_id`. `subscriber_id`: the referred subscriber, on the same waitlist (referrals never cross waitlists). The waitlist is `data.referrer.waitlist_id`; the other events' data have it at `data.waitlist_id`.",
  },
);
export type ReferralCredit = z.infer<typeof ReferralCreditSchema>;

/** A subscriber in the documentation's examples; the tests check that every example parses. */
const exampleSubscriber = {
  id: 'sub_8Kq2xY4mP1',
  email: 'ada@example.com',
  joined_at: '2026-03-01T09:30:00Z',
  position: 42,
  referral_code: 'K7M2QX',
  referral_count: 0,
  status: 'waiting',
  admitted_at: null,
  confirmed: true,
  fields: { company: 'Analytical Engines Ltd' },
  source: { utm_source: 'newsletter', landing: 'https://example.com/' },
  channel: 'newsletter',
  unsubscribed: false,
  lang: 'en',
  waitlist_id: 'wl_3Fj9',
};

/** One event schema: the common envelope with its own `type` and `data`. */
function webhookEvent<T extends WebhookEventType, D extends z.ZodMiniType>(
  type: T,
  data: D,
  meta: { id: string; description: string; example: { timestamp: string; data: unknown } },
) {
  return doc(
    z.object({
      type: z.literal(type),
      timestamp: doc(rfc3339(), {
        description:
          'RFC 3339 time the change happened; the same in every attempt (`webhook-timestamp` is the time of the attempt).',
      }),
      data,
    }),
    { id: meta.id, description: meta.description, examples: [{ type, ...meta.example }] },
  );
}

export const SubscriberCreatedEventSchema = webhookEvent(
  WebhookEventType.subscriberCreated,
  WebhookSubscriberSchema,
  {
    id: 'SubscriberCreatedEvent',
    description: 'A fresh sign-up, through either endpoint. A re-sign-up of a known address sends nothing.',
    example: { timestamp: '2026-03-01T09:30:00Z', data: exampleSubscriber },
  },
);
export const SubscriberConfirmedEventSchema = webhookEvent(
  WebhookEventType.subscriberConfirmed,
  WebhookSubscriberSchema,
  {
    id: 'SubscriberConfirmedEvent',
    description: 'The subscriber confirmed their email address (waitlists with `confirm_email` on).',
    example: { timestamp: '2026-03-01T09:41:07Z', data: exampleSubscriber },
  },
);
export const SubscriberAdmittedEventSchema = webhookEvent(
  WebhookEventType.subscriberAdmitted,
  WebhookSubscriberSchema,
  {
    id: 'SubscriberAdmittedEvent',
    description: 'The subscriber was let in; one event per subscriber of an admission.',
    example: {
      timestamp: '2026-04-15T12:00:00Z',
      data: { ...exampleSubscriber, position: null, status: 'admitted', admitted_at: '2026-04-15T12:00:00Z' },
    },
  },
);
export const SubscriberDeletedEventSchema = webhookEvent(
  WebhookEventType.subscriberDeleted,
  DeletedSubscriberSchema,
  {
    id: 'SubscriberDeletedEvent',
    description: 'The subscriber was erased; `data` holds only its id and waitlist. Erase your copy too.',
    example: {
      timestamp: '2026-05-02T08:15:30Z',
      data: { id: exampleSubscriber.id, waitlist_id: 'wl_3Fj9' },
    },
  },
);
export const ReferralCreditedEventSchema = webhookEvent(
  WebhookEventType.referralCredited,
  ReferralCreditSchema,
  {
    id: 'ReferralCreditedEvent',
    description:
      'A referral was credited: `data.referrer` after the credit, `data.subscriber_id` the referred subscriber.',
    example: {
      timestamp: '2026-03-02T17:04:11Z',
      data: {
        referrer: { ...exampleSubscriber, position: 37, referral_count: 1 },
        subscriber_id: 'sub_Vb71nQ0zRt',
      },
    },
  },
);

export const WebhookEventSchema = doc(
  z.discriminatedUnion('type', [
    SubscriberCreatedEventSchema,
    SubscriberConfirmedEventSchema,
    SubscriberAdmittedEventSchema,
    SubscriberDeletedEventSchema,
    ReferralCreditedEventSchema,
  ]),
  {
    id: 'WebhookEvent',
    description:
      'Body of a webhook delivery, signed per Standard Webhooks (`webhook-id`, `webhook-timestamp`, `webhook-signature`).',
  },
);
export type WebhookEvent = z.infer<typeof WebhookEventSchema>;
export type SubscriberCreatedEvent = z.infer<typeof SubscriberCreatedEventSchema>;
export type SubscriberConfirmedEvent = z.infer<typeof SubscriberConfirmedEventSchema>;
export type SubscriberAdmittedEvent = z.infer<typeof SubscriberAdmittedEventSchema>;
export type SubscriberDeletedEvent = z.infer<typeof SubscriberDeletedEventSchema>;
export type ReferralCreditedEvent = z.infer<typeof ReferralCreditedEventSchema>;
/** The event of one type: `WebhookEventOf<'subscriber.admitted'>`. */
export type WebhookEventOf<T extends WebhookEventType> = Extract<WebhookEvent, { type: T }>;
