/** `client.subscribers`: the endpoints of the customer API, plus lazy iteration over pages. */
import {
  type AcceptedSignup,
  AcceptedSignupSchema,
  type AdmissionsBody,
  type AdmissionsResult,
  AdmissionsResultSchema,
  type ApiCreateSubscriberBody,
  ApiCreateSubscriberBodySchema,
  describeIssue,
  type FieldValues,
  LIMIT_MAX,
  type ListPage,
  ListPageSchema,
  type ListQueryInput,
  ListQuerySchema,
  parseAdmissionsBody,
  type Subscriber,
  SubscriberSchema,
} from '@waitlistkit/protocol';
import * as z from 'zod/mini';
import { checkArguments, type Signature } from './arguments.js';
import { withInfo } from './result.js';
import type { Transport } from './transport.js';
import type { PostRequestOptions, PostResponseInfo, RequestOptions, ResponseInfo } from './types.js';

/**
 * A wire object with what the client read from its answer's headers beside it; `JSON.stringify`
 * writes the wire object alone (result.ts).
 */
export type WithResponseInfo<T> = T & ResponseInfo;
/** @deprecated Results carry `requestId` too now; use `WithResponseInfo`. */
export type WithRateLimit<T> = WithResponseInfo<T>;

/**
 * A subscriber whose `fields` have the types a waitlist's fields give them (docs/subscribers.md#fields):
 * `F` maps each key to its answer's type (`string` for text and select, `boolean` for a checkbox),
 * as the client's type parameter says. Only answered fields are present, so each may be undefined.
 * The types are the caller's word for what the waitlist asks; the service checks the answers.
 */
export type SubscriberOf<F extends FieldValues = FieldValues> = Omit<Subscriber, 'fields'> & {
  fields: AnswersOf<F>;
};

/** Every answer optional for a waitlist's own keys; an untyped record stays as the wire has it. */
export type AnswersOf<F extends FieldValues> = string extends keyof F ? F : Partial<F>;

export type SubscriberPage<F extends FieldValues = FieldValues> = WithResponseInfo<
  Omit<ListPage, 'items'> & { items: SubscriberOf<F>[] }
>;
export type SubscriberResult<F extends FieldValues = FieldValues> = WithResponseInfo<SubscriberOf<F>>;
export type SignupResult = AcceptedSignup & PostResponseInfo;
export type AdmitResult<F extends FieldValues = FieldValues> = Omit<AdmissionsResult, 'items'> & {
  items: SubscriberOf<F>[];
} & PostResponseInfo;
/** A delete answers 204 without a body: only what its headers said. */
export type DeleteResult = ResponseInfo;

/**
 * `page` (1-based, default 1), `limit` (default 25, the service clamps to 200), `q` (email
 * substring), `status` (`waiting`, the default: the line; or `admitted`, newest admission first).
 */
export type ListParams = ListQueryInput;
export type IterateParams = Omit<ListQueryInput, 'page'>;
/** `fields`: the answers, by key; `source`: where the sign-up came from (docs/subscribers.md#attribution). */
export type CreateParams<F extends FieldValues = FieldValues> = Omit<ApiCreateSubscriberBody, 'fields'> & {
  fields?: AnswersOf<F>;
};
/**
 * Whom to let in: the first `count` waiting subscribers by position, or exactly `subscriberIds`
 * (unknown or already admitted ones are skipped). One of the two, 1 to 1000.
 */
export type AdmitParams =
  | { count: number; subscriberIds?: never }
  | { subscriberIds: readonly string[]; count?: never };

// The parameter names come from the protocol's schemas, so a field added there is accepted here.
const LIST: Signature = { method: 'list', params: Object.keys(ListQuerySchema.shape) };
const ITERATE: Signature = {
  method: 'iterate',
  params: LIST.params?.filter((name) => name !== 'page'),
  notParams: { page: 'iterate fetches every page, from the first.' },
};
const GET: Signature = { method: 'get' };
const CREATE: Signature = {
  method: 'create',
  params: Object.keys(ApiCreateSubscriberBodySchema.shape),
  post: true,
};
const ADMIT: Signature = { method: 'admit', params: ['count', 'subscriberIds'], post: true };
const DELETE: Signature = { method: 'delete' };

/** One id as a path segment; `method` as messages name it (`list`, or `client.stats`). */
function segment(method: string, name: string, noun: string, value: unknown): string {
  const prefix = method.includes('.') ? method : `subscribers.${method}`;
  if (typeof value !== 'string' || value === '') {
    throw new TypeError(`${prefix}: \`${name}\` must be a non-empty string.`);
  }
  // URLs resolve "." and ".." segments even when percent-encoded, so the id could escape its place.
  if (value === '.' || value === '..') {
    throw new TypeError(`${prefix}: "${value}" is not a ${noun} id.`);
  }
  return encodeURIComponent(value);
}

export function waitlistPath(method: string, waitlistId: string): string {
  return `v1/api/waitlists/${segment(method, 'waitlistId', 'waitlist', waitlistId)}`;
}

function subscriberPath(method: string, waitlistId: string, subscriberId: string): string {
  const waitlist = waitlistPath(method, waitlistId);
  return `${waitlist}/subscribers/${segment(method, 'subscriberId', 'subscriber', subscriberId)}`;
}

function invalidArgument(method: string, issue: z.core.$ZodIssue | undefined): TypeError {
  return new TypeError(`subscribers.${method}: ${issue ? describeIssue(issue) : 'invalid argument.'}`);
}

/**
 * The wire body of an admission, checked by the protocol's own rules (exactly one of the two,
 * 1 to 1000). Its messages name the wire field; the caller wrote `subscriberIds`, so they say that.
 */
function admissionsBody(params: AdmitParams): AdmissionsBody {
  const parsed = parseAdmissionsBody({ count: params.count, subscriber_ids: params.subscriberIds });
  if (!parsed.ok) {
    const message = parsed.error.message.replace(/`subscriber_ids(?=[.`])/g, '`subscriberIds');
    throw new TypeError(`subscribers.admit: ${message}`);
  }
  const admission = parsed.value;
  return 'count' in admission ? { count: admission.count } : { subscriber_ids: admission.subscriberIds };
}

/** `F`: the waitlist's field keys and their answers' types, for typed `fields` (see `SubscriberOf`). */
export class Subscribers<F extends FieldValues = FieldValues> {
  readonly #transport: Transport;

  constructor(transport: Transport) {
    this.#transport = transport;
  }

  /** One page of a waitlist's subscribers: the line by position, or the admitted ones. */
  async list(
    waitlistId: string,
    params: ListParams = {},
    options?: RequestOptions,
  ): Promise<SubscriberPage<F>> {
    const path = `${waitlistPath('list', waitlistId)}/subscribers`;
    checkArguments(LIST, params, options);
    // Encoding through the protocol's query schema checks the values and writes them as the
    // server parses them (strict decimal text).
    const query = z.safeEncode(ListQuerySchema, params, { reportInput: true });
    if (!query.success) throw invalidArgument('list', query.error.issues[0]);
    const searchParams: Record<string, string> = {};
    for (const [name, value] of Object.entries(query.data)) {
      if (value !== undefined) searchParams[name] = value;
    }
    const { data, rateLimit, requestId } = await this.#transport.request(
      { method: 'get', path, searchParams, schema: ListPageSchema, label: 'ListPage' },
      options,
    );
    return withInfo(data as SubscriberPage<F>, { rateLimit, requestId });
  }

  /**
   * Every subscriber of the waitlist (or every match of `q`, of `status`), fetching pages only as
   * the loop asks for them. Pages are of `limit` items, 200 by default: the fewest requests
   * against the key's per-minute budget. Positions are live, so sign-ups, admissions and erasures
   * made while iterating can shift subscribers across page boundaries.
   */
  async *iterate(
    waitlistId: string,
    params: IterateParams = {},
    options?: RequestOptions,
  ): AsyncGenerator<SubscriberOf<F>, void, undefined> {
    checkArguments(ITERATE, params, options);
    const limit = params.limit ?? LIMIT_MAX;
    for (let page = 1; ; page++) {
      const result = await this.list(waitlistId, { ...params, page, limit }, options);
      yield* result.items;
      // The requested page and the applied limit: a server that clamped the limit or echoed the
      // wrong page number still ends the loop.
      if (result.items.length === 0 || page * result.limit >= result.total) return;
    }
  }

  /** One subscriber, waiting or admitted. An unknown id, or one of another waitlist, is `NotFoundError`. */
  async get(
    waitlistId: string,
    subscriberId: string,
    options?: RequestOptions,
  ): Promise<SubscriberResult<F>> {
    const path = subscriberPath('get', waitlistId, subscriberId);
    checkArguments(GET, undefined, options);
    const { data, rateLimit, requestId } = await this.#transport.request(
      { method: 'get', path, schema: SubscriberSchema, label: 'Subscriber' },
      options,
    );
    return withInfo(data as SubscriberOf<F>, { rateLimit, requestId });
  }

  /**
   * Signs someone up, server to server. A repeated create for the same address is answered like
   * the first (the service de-duplicates), and the client's retries carry one Idempotency-Key.
   */
  async create(
    waitlistId: string,
    params: CreateParams<F>,
    options?: PostRequestOptions,
  ): Promise<SignupResult> {
    const path = `${waitlistPath('create', waitlistId)}/subscribers`;
    checkArguments(CREATE, params, options);
    const body = ApiCreateSubscriberBodySchema.safeParse(params, { reportInput: true });
    if (!body.success) throw invalidArgument('create', body.error.issues[0]);
    const { data, rateLimit, requestId, idempotentReplayed } = await this.#transport.request(
      { method: 'post', path, json: body.data, schema: AcceptedSignupSchema, label: 'AcceptedSignup' },
      options,
    );
    return withInfo(data, { rateLimit, requestId, idempotentReplayed });
  }

  /**
   * Lets subscribers in, atomically: the first `count` waiting ones by position, or exactly
   * `subscriberIds`. Resolves to those this request admitted, in the order they were let in.
   * The call's attempts share one Idempotency-Key, so a retry never admits a second batch.
   */
  async admit(
    waitlistId: string,
    params: AdmitParams,
    options?: PostRequestOptions,
  ): Promise<AdmitResult<F>> {
    const path = `${waitlistPath('admit', waitlistId)}/admissions`;
    checkArguments(ADMIT, params, options);
    const json = admissionsBody(params);
    const { data, rateLimit, requestId, idempotentReplayed } = await this.#transport.request(
      { method: 'post', path, json, schema: AdmissionsResultSchema, label: 'Admissions' },
      options,
    );
    return withInfo(data as AdmitResult<F>, { rateLimit, requestId, idempotentReplayed });
  }

  /**
   * Erases a subscriber: the row, its email, codes and tokens. A 404 (`NotFoundError`) means it
   * is not there, which after a retried attempt may be because that attempt erased it.
   */
  async delete(waitlistId: string, subscriberId: string, options?: RequestOptions): Promise<DeleteResult> {
    const path = subscriberPath('delete', waitlistId, subscriberId);
    checkArguments(DELETE, undefined, options);
    const { rateLimit, requestId } = await this.#transport.requestNoContent(
      { method: 'delete', path },
      options,
    );
    return { rateLimit, requestId };
  }
}
