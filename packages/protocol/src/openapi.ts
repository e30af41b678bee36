/**
 * The OpenAPI 3.1 document of the service, generated from the protocol's zod schemas so the
 * document cannot drift from what servers and clients validate. `openapi.json` at the package
 * root is this function's output; a test fails when the two disagree.
 */
import * as z from 'zod/mini';
import {
  BODY_MAX_BYTES,
  Header,
  LIMIT_DEFAULT,
  LIMIT_MAX,
  Scope,
  WEBHOOK_MESSAGE_ID_PREFIX,
  WEBHOOK_SECRET_PREFIX,
  WEBHOOK_SIGNATURE_VERSION,
  WebhookHeader,
} from './constants.js';
import { docs, ListQuerySchema, StatsQuerySchema, WebhookEventSchema } from './schemas.js';

type Json = Record<string, unknown>;

const ref = (id: string) => ({ $ref: `#/components/schemas/${id}` });
const json = (schema: Json) => ({ 'application/json': { schema } });

function stripDialect(schema: Json): Json {
  const { $schema: _dialect, ...rest } = schema;
  return rest;
}

const integerHeader = (description: string) => ({ description, schema: { type: 'integer' } });

const rateLimitHeaders = {
  [Header.rateLimitLimit]: integerHeader("Requests allowed per minute on this key's budget."),
  [Header.rateLimitRemaining]: integerHeader('Requests left in the current window.'),
  [Header.rateLimitReset]: integerHeader('Seconds until the budget is full again.'),
};

const retryAfter = { [Header.retryAfter]: integerHeader('Seconds to wait before retrying.') };

const requestId = {
  [Header.requestId]: {
    description: '`req_` and 16 or more URL-safe characters; the server logs it with the request.',
    schema: { type: 'string', pattern: '^req_[A-Za-z0-9_-]{16,}$' },
  },
};

/** Every answer of both areas carries a Request-Id (docs/protocol.md#request-id). */
function response(description: string, headers: Json = {}, content?: Json): Json {
  const all = { ...requestId, ...headers };
  return content ? { description, headers: all, content } : { description, headers: all };
}

function errorResponse(description: string, headers: Json = {}): Json {
  return response(description, headers, json(ref('ErrorBody')));
}

/** Every operation that touches the store may find it unreachable; none hangs or fails for good. */
const unavailable = errorResponse(
  '`service_unavailable`: the database is unreachable for the moment (nothing was done); retry after `Retry-After` seconds.',
  retryAfter,
);

const idempotencyKeyParameter = {
  name: Header.idempotencyKey,
  in: 'header',
  required: false,
  description:
    'Makes the POST safe to retry: the first answer (2xx, or 4xx other than 429) is kept 24 hours for this key and API key, and a retry with the same body gets it again with `Idempotent-Replayed: true`.',
  schema: { type: 'string', minLength: 1, maxLength: 255, pattern: '^[\\x20-\\x7e]+$' },
};

const idempotencyResponses = {
  '409': errorResponse('`idempotency_key_in_use`: a request with this Idempotency-Key is still in progress.'),
  '422': errorResponse('`idempotency_key_reused`: this Idempotency-Key was used with a different body.'),
};

const replayed = {
  [Header.idempotentReplayed]: {
    description: '`true` when this is the kept answer to an earlier request with the same Idempotency-Key.',
    schema: { type: 'string', const: 'true' },
  },
};

function apiResponses(extra: Record<string, Json>): Json {
  return {
    ...extra,
    '401': errorResponse(
      '`unauthorized`: header missing or malformed, key unknown or revoked (one body for all).',
    ),
    '403': errorResponse(
      '`feature_not_allowed` (plan without API access), `insufficient_scope` (message names the scope), or `geo_restricted`.',
      rateLimitHeaders,
    ),
    '404': errorResponse('`not_found`: waitlist missing, archived or of another tenant.', rateLimitHeaders),
    '429': errorResponse("`rate_limit_exceeded`: the key's per-minute budget, or the per-email throttle.", {
      ...retryAfter,
      ...rateLimitHeaders,
    }),
    '500': errorResponse('`internal_error`: transient; retry with backoff.'),
    '503': unavailable,
  };
}

const subscriberIdParameter = {
  name: 'subscriber_id',
  in: 'path',
  required: true,
  description: 'Id of the subscriber (`sub_…`).',
  schema: { type: 'string' },
};

const waitlistIdParameter = {
  name: 'waitlist_id',
  in: 'path',
  required: true,
  description: 'Id of the waitlist, shown on its setup page.',
  schema: { type: 'string', pattern: '^wl_[A-Za-z0-9]+$' },
};

function queryParameters(
  shape: typeof ListQuerySchema.def.shape | typeof StatsQuerySchema.def.shape,
): Json[] {
  return Object.entries(shape).map(([name, field]) => {
    const schema = stripDialect(
      // The output side: integers, as OpenAPI describes query values sent as decimal text.
      z.toJSONSchema(field, { metadata: docs, io: 'output', target: 'draft-2020-12' }) as Json,
    );
    const { description, ...rest } = schema;
    return { name, in: 'query', required: false, description, schema: rest };
  });
}

const webhookHeaders = [
  {
    name: WebhookHeader.id,
    in: 'header',
    required: true,
    description: `Message id (\`${WEBHOOK_MESSAGE_ID_PREFIX}…\`), the same in every attempt: deduplicate on it.`,
    schema: { type: 'string', pattern: `^${WEBHOOK_MESSAGE_ID_PREFIX}` },
  },
  {
    name: WebhookHeader.timestamp,
    in: 'header',
    required: true,
    description:
      'Unix seconds of this attempt. Refuse a delivery more than 5 minutes from your clock, either way.',
    schema: { type: 'string', pattern: '^[0-9]+$' },
  },
  {
    name: WebhookHeader.signature,
    in: 'header',
    required: true,
    description: `Space-separated \`${WEBHOOK_SIGNATURE_VERSION},<base64>\` entries: HMAC-SHA256, keyed with the base64-decoded part of the endpoint's secret after \`${WEBHOOK_SECRET_PREFIX}\`, over \`<webhook-id>.<webhook-timestamp>.<raw body>\`. Accept the delivery when one entry matches (compare in constant time).`,
    schema: { type: 'string' },
  },
];

/**
 * One `webhooks` entry per event type, read off the event union so a new event cannot be left
 * out: the POST the service sends to a tenant's endpoint (docs/webhooks.md#delivery).
 */
function webhookOperations(): Record<string, Json> {
  const operations: Record<string, Json> = {};
  for (const event of WebhookEventSchema.def.options) {
    const [type] = event.def.shape.type.def.values;
    const meta = docs.get(event);
    if (type === undefined || meta?.id === undefined)
      throw new Error('every webhook event has a type and an id');
    operations[type] = {
      post: {
        tags: ['webhooks'],
        // `referralCredited` for ReferralCreditedEvent: camelCase like the paths' operation ids.
        operationId: meta.id.charAt(0).toLowerCase() + meta.id.slice(1).replace(/Event$/, ''),
        summary: `\`${type}\``,
        description: `${meta.description ?? ''} Sent with \`Content-Type: application/json\` to each endpoint of the tenant that takes this event type and waitlist.`,
        parameters: webhookHeaders,
        requestBody: { required: true, content: json(ref(meta.id)) },
        responses: {
          '2XX': { description: 'Received: any 2xx answer within 15 seconds ends the delivery.' },
          default: {
            description:
              'Anything else, a timeout or a redirect (not followed) fails the attempt: retried after 5 s, 5 min, 30 min, 2 h, 5 h, 10 h and 10 h, then marked failed.',
          },
        },
      },
    };
  }
  return operations;
}

export function buildOpenApiDocument(): Json {
  const { schemas } = z.toJSONSchema(docs, {
    metadata: docs,
    target: 'draft-2020-12',
    io: 'input',
    uri: (id) => `#/components/schemas/${id}`,
  });
  const components: Record<string, Json> = {};
  for (const id of Object.keys(schemas).sort()) {
    const { $id: _id, ...schema } = stripDialect(schemas[id] as Json);
    components[id] = schema;
  }
  const publicPath = '/v1/public/waitlists/{waitlist_id}/subscribers';
  const gatesPath = '/v1/public/waitlists/{waitlist_id}/gates';
  const formPath = '/v1/public/waitlists/{waitlist_id}/form';
  const originParameter = {
    name: 'Origin',
    in: 'header',
    required: true,
    description: "Must be on the waitlist's origin allowlist.",
    schema: { type: 'string' },
  };
  const preflight = (operationId: string) => ({
    tags: ['public'],
    operationId,
    summary: 'CORS preflight',
    responses: {
      '204': response('Origin allowlisted; CORS headers returned.', {
        'Access-Control-Allow-Origin': { schema: { type: 'string' } },
        'Access-Control-Allow-Methods': { schema: { type: 'string', const: 'POST, OPTIONS' } },
        'Access-Control-Allow-Headers': { schema: { type: 'string', const: 'Content-Type' } },
        'Access-Control-Max-Age': { schema: { type: 'integer', const: 600 } },
      }),
      '404': response('Origin missing or not allowlisted; no CORS headers.'),
      '503': unavailable,
    },
  });
  const publicNotFound = errorResponse(
    '`not_found`: waitlist missing or archived, Origin missing or not allowlisted.',
  );
  const apiPath = '/v1/api/waitlists/{waitlist_id}/subscribers';
  const subscriberPath = `${apiPath}/{subscriber_id}`;
  const admissionsPath = '/v1/api/waitlists/{waitlist_id}/admissions';
  const statsPath = '/v1/api/waitlists/{waitlist_id}/stats';
  const viewsPath = '/v1/public/waitlists/{waitlist_id}/views';
  const notFoundSubscriber = errorResponse(
    '`not_found`: waitlist missing, archived or of another tenant, or no such subscriber on it.',
    rateLimitHeaders,
  );
  return {
    openapi: '3.1.0',
    info: {
      title: 'Waitlist service',
      version: '1.0.0',
      description:
        'Customer API (Bearer keys) and public subscribe endpoint of the waitlist service, and the webhooks it sends. Generated from @waitlistkit/protocol.',
      license: { name: 'MIT', identifier: 'MIT' },
    },
    servers: [{ url: '{base_url}', variables: { base_url: { default: 'http://localhost:8787' } } }],
    tags: [
      { name: 'customer', description: 'Authenticated customer API.' },
      { name: 'public', description: 'Unauthenticated public subscribe, behind anti-abuse gates.' },
      {
        name: 'webhooks',
        description: "Signed POSTs the service sends to a tenant's endpoints (Standard Webhooks).",
      },
    ],
    paths: {
      [apiPath]: {
        parameters: [waitlistIdParameter],
        get: {
          tags: ['customer'],
          operationId: 'listSubscribers',
          summary: 'List subscribers',
          description: `Ordered by position. Needs scope \`${Scope.read}\`. Default page size ${LIMIT_DEFAULT}, maximum ${LIMIT_MAX}.`,
          security: [{ apiKey: [] }],
          parameters: queryParameters(ListQuerySchema.def.shape),
          responses: apiResponses({
            '200': response('A page of subscribers.', rateLimitHeaders, json(ref('ListPage'))),
            '400': errorResponse('`invalid_request`: a query parameter is malformed.', rateLimitHeaders),
          }),
        },
        post: {
          tags: ['customer'],
          operationId: 'createSubscriber',
          summary: 'Create a subscriber (server to server)',
          description: `Needs scope \`${Scope.write}\`. Skips the origin allowlist, Challenge and Proof of Work; applies the per-email throttle, MX check, disposable blocklist and geo rules when enabled.`,
          security: [{ apiKey: [] }],
          parameters: [idempotencyKeyParameter],
          requestBody: { required: true, content: json(ref('ApiCreateSubscriberBody')) },
          responses: apiResponses({
            '202': response(
              'Accepted: created, or matched to the existing subscriber of that email.',
              { ...rateLimitHeaders, ...replayed },
              json(ref('AcceptedSignup')),
            ),
            ...idempotencyResponses,
            '400': errorResponse(
              '`invalid_email` (syntax, disposable domain, no MX) or `invalid_request` (body malformed).',
              rateLimitHeaders,
            ),
            '413': errorResponse(`\`payload_too_large\`: body over ${BODY_MAX_BYTES} bytes.`),
            '415': errorResponse('`unsupported_media_type`: Content-Type is not application/json.'),
          }),
        },
      },
      [subscriberPath]: {
        parameters: [waitlistIdParameter, subscriberIdParameter],
        get: {
          tags: ['customer'],
          operationId: 'getSubscriber',
          summary: 'Get one subscriber',
          description: `Needs scope \`${Scope.read}\`.`,
          security: [{ apiKey: [] }],
          responses: apiResponses({
            '200': response('The subscriber.', rateLimitHeaders, json(ref('Subscriber'))),
            '404': notFoundSubscriber,
          }),
        },
        delete: {
          tags: ['customer'],
          operationId: 'deleteSubscriber',
          summary: 'Erase a subscriber',
          description: `Needs scope \`${Scope.write}\`. The row, its email, codes and tokens are gone; its referrer keeps the credit; a later sign-up with the same address is a fresh subscriber.`,
          security: [{ apiKey: [] }],
          responses: apiResponses({
            '204': response('Erased.', rateLimitHeaders),
            '404': notFoundSubscriber,
          }),
        },
      },
      [admissionsPath]: {
        parameters: [waitlistIdParameter],
        post: {
          tags: ['customer'],
          operationId: 'admitSubscribers',
          summary: 'Let subscribers in',
          description: `Needs scope \`${Scope.write}\`. Admits the first \`count\` waiting subscribers by position, or exactly the \`subscriber_ids\` given (unknown or already admitted ids are skipped), atomically.`,
          security: [{ apiKey: [] }],
          parameters: [idempotencyKeyParameter],
          requestBody: { required: true, content: json(ref('AdmissionsBody')) },
          responses: apiResponses({
            '200': response(
              'The subscribers admitted.',
              { ...rateLimitHeaders, ...replayed },
              json(ref('Admissions')),
            ),
            '400': errorResponse('`invalid_request`: the body is malformed.', rateLimitHeaders),
            '413': errorResponse(`\`payload_too_large\`: body over ${BODY_MAX_BYTES} bytes.`),
            '415': errorResponse('`unsupported_media_type`: Content-Type is not application/json.'),
            ...idempotencyResponses,
          }),
        },
      },
      [statsPath]: {
        parameters: [waitlistIdParameter],
        get: {
          tags: ['customer'],
          operationId: 'getStats',
          summary: 'How the launch is going',
          description: `Needs scope \`${Scope.read}\`. Views, sign-ups, confirmations, referred sign-ups and admissions per UTC day, views and sign-ups per channel, and the totals, over at most 366 days (default the last 30). Read from aggregates kept per day: no personal data, and erasure changes no past day.`,
          security: [{ apiKey: [] }],
          parameters: queryParameters(StatsQuerySchema.def.shape),
          responses: apiResponses({
            '200': response('The figures of the range.', rateLimitHeaders, json(ref('Stats'))),
            '400': errorResponse(
              '`invalid_request`: `from` or `to` is not a calendar day written YYYY-MM-DD, `from` is after `to`, or the range is over 366 days (the message names the parameter).',
              rateLimitHeaders,
            ),
          }),
        },
      },
      [viewsPath]: {
        parameters: [waitlistIdParameter],
        post: {
          tags: ['public'],
          operationId: 'publicView',
          summary: 'Count a view of the form (public)',
          description:
            'Needs an allowlisted Origin; counts towards the per-IP budget of the subscribe endpoint. Counts one view under the channel of `source` (docs/insights.md#views); no cookie, no identifier, nothing per person is kept. Also takes the JSON as `text/plain`, which `navigator.sendBeacon` can send across origins without a preflight.',
          parameters: [originParameter],
          requestBody: {
            required: true,
            content: { ...json(ref('ViewBody')), 'text/plain': { schema: ref('ViewBody') } },
          },
          responses: {
            '204': response('Counted.'),
            '400': errorResponse('`invalid_request`: the body is not `{}` or `{"source": {…}}`.'),
            '404': publicNotFound,
            '413': errorResponse(`\`payload_too_large\`: body over ${BODY_MAX_BYTES} bytes.`),
            '415': errorResponse(
              '`unsupported_media_type`: Content-Type is neither application/json nor text/plain.',
            ),
            '429': errorResponse('`rate_limit_exceeded`: the per-IP throttle (Retry-After: 60).', retryAfter),
            '500': errorResponse('`internal_error`: transient; retry with backoff.'),
            '503': unavailable,
          },
        },
        options: preflight('publicViewPreflight'),
      },
      [publicPath]: {
        parameters: [waitlistIdParameter],
        post: {
          tags: ['public'],
          operationId: 'publicSubscribe',
          summary: 'Subscribe (public)',
          description:
            'Needs an allowlisted Origin. May answer 428 with a Challenge or Proof of Work gate; resend the same body with `challenge_token` or `pow` added.',
          parameters: [originParameter],
          requestBody: { required: true, content: json(ref('PublicSubscribeBody')) },
          responses: {
            '202': response(
              'Accepted: created, or matched to the existing subscriber of that email.',
              {
                [Header.confirmEmail]: {
                  description:
                    '`on` when the waitlist confirms email addresses (docs/subscribers.md#email-confirmation): a confirmation mail is on its way, so a form should say "check your inbox". It describes the waitlist, not the address, and is absent otherwise.',
                  schema: { type: 'string', enum: ['on'] },
                },
              },
              json(ref('AcceptedSignup')),
            ),
            '400': errorResponse('`invalid_email` or `invalid_request`.'),
            '403': errorResponse('`geo_restricted`: the waitlist does not accept this country.'),
            '404': publicNotFound,
            '413': errorResponse(`\`payload_too_large\`: body over ${BODY_MAX_BYTES} bytes.`),
            '415': errorResponse('`unsupported_media_type`: Content-Type is not application/json.'),
            '428': response('A gate must be passed first.', {}, json(ref('ChallengeRequired'))),
            '429': errorResponse(
              '`rate_limit_exceeded`: the per-IP throttle (Retry-After: 60) or the per-email throttle.',
              retryAfter,
            ),
            '500': errorResponse('`internal_error`: transient; retry with backoff.'),
            '503': unavailable,
          },
        },
        options: preflight('publicSubscribePreflight'),
      },
      [gatesPath]: {
        parameters: [waitlistIdParameter],
        post: {
          tags: ['public'],
          operationId: 'publicGates',
          summary: 'Gates before the submit (public)',
          description:
            'Needs an allowlisted Origin; counts towards the per-IP budget of the subscribe endpoint. Returns the Challenge token and Proof of Work nonce the waitlist requires, so the sign-up can carry them on its first request and get no 428.',
          parameters: [originParameter],
          requestBody: { required: true, content: json(ref('GatesBody')) },
          responses: {
            '200': response('What the waitlist requires; `{}` when nothing.', {}, json(ref('GatesResponse'))),
            '400': errorResponse('`invalid_request`: the body is not the empty object `{}`.'),
            '404': publicNotFound,
            '413': errorResponse(`\`payload_too_large\`: body over ${BODY_MAX_BYTES} bytes.`),
            '415': errorResponse('`unsupported_media_type`: Content-Type is not application/json.'),
            '429': errorResponse('`rate_limit_exceeded`: the per-IP throttle (Retry-After: 60).', retryAfter),
            '500': errorResponse('`internal_error`: transient; retry with backoff.'),
            '503': unavailable,
          },
        },
        options: preflight('publicGatesPreflight'),
      },
      [formPath]: {
        parameters: [waitlistIdParameter],
        get: {
          tags: ['public'],
          operationId: 'publicForm',
          summary: 'The form (public)',
          description:
            "Needs an allowlisted Origin; not counted in the per-IP budget. The waitlist's fields, in order, for the widget to render beside the address (docs/endpoints.md#the-form). A simple GET: no preflight.",
          parameters: [originParameter],
          responses: {
            '200': response(
              'The fields; `[]` when the waitlist asks nothing.',
              {
                'Cache-Control': {
                  description:
                    'A short browser cache (`public, max-age=60`): a change reaches visitors within a minute.',
                  schema: { type: 'string' },
                },
              },
              json(ref('Form')),
            ),
            '404': publicNotFound,
            '500': errorResponse('`internal_error`: transient; retry with backoff.'),
            '503': unavailable,
          },
        },
      },
    },
    webhooks: webhookOperations(),
    components: {
      schemas: components,
      securitySchemes: {
        apiKey: {
          type: 'http',
          scheme: 'bearer',
          description: 'An API key: `wlk_live_` + 32 base62 characters + a 6-character checksum.',
        },
      },
    },
  };
}
