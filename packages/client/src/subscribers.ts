/** `client.subscribers`: the two endpoints of the customer API, plus lazy iteration over pages. */
import {
  type AcceptedSignup,
  AcceptedSignupSchema,
  type ApiCreateSubscriberBody,
  ApiCreateSubscriberBodySchema,
  describeIssue,
  LIMIT_MAX,
  type ListPage,
  ListPageSchema,
  type ListQueryInput,
  ListQuerySchema,
  type Subscriber,
} from '@waitlistkit/protocol';
import * as z from 'zod/mini';
import type { RateLimit } from './rate-limit.js';
import type { Transport } from './transport.js';
import type { RequestOptions } from './types.js';

/**
 * A wire object with the rate-limit headers of its answer beside it. `rateLimit` is camelCase
 * and the wire is snake_case, so what the client adds can never be mistaken for (or collide
 * with) a field the service sent.
 */
export type WithRateLimit<T> = T & { readonly rateLimit: RateLimit };

export type SubscriberPage = WithRateLimit<ListPage>;
export type SignupResult = WithRateLimit<AcceptedSignup>;

/** `page` (1-based, default 1), `limit` (default 25, the service clamps to 200), `q` (email substring). */
export type ListParams = ListQueryInput;
export type IterateParams = Omit<ListQueryInput, 'page'>;
export type CreateParams = ApiCreateSubscriberBody;

function subscribersPath(method: string, waitlistId: string): string {
  if (typeof waitlistId !== 'string' || waitlistId === '') {
    throw new TypeError(`subscribers.${method}: \`waitlistId\` must be a non-empty string.`);
  }
  // URLs resolve "." and ".." segments even when percent-encoded, so the id could escape its place.
  if (waitlistId === '.' || waitlistId === '..') {
    throw new TypeError(`subscribers.${method}: "${waitlistId}" is not a waitlist id.`);
  }
  return `v1/api/waitlists/${encodeURIComponent(waitlistId)}/subscribers`;
}

function invalidArgument(method: string, issue: z.core.$ZodIssue | undefined): TypeError {
  return new TypeError(`subscribers.${method}: ${issue ? describeIssue(issue) : 'invalid argument.'}`);
}

export class Subscribers {
  readonly #transport: Transport;

  constructor(transport: Transport) {
    this.#transport = transport;
  }

  /** One page of a waitlist's subscribers, ordered by position. */
  async list(waitlistId: string, params: ListParams = {}, options?: RequestOptions): Promise<SubscriberPage> {
    const path = subscribersPath('list', waitlistId);
    // Encoding through the protocol's query schema checks the values and writes them as the
    // server parses them (strict decimal text).
    const query = z.safeEncode(ListQuerySchema, params, { reportInput: true });
    if (!query.success) throw invalidArgument('list', query.error.issues[0]);
    const searchParams: Record<string, string> = {};
    for (const [name, value] of Object.entries(query.data)) {
      if (value !== undefined) searchParams[name] = value;
    }
    const { data, rateLimit } = await this.#transport.request(
      { method: 'get', path, searchParams, schema: ListPageSchema, label: 'ListPage' },
      options,
    );
    return { ...data, rateLimit };
  }

  /**
   * Every subscriber of the waitlist (or every match of `q`), fetching pages only as the loop
   * asks for them. Pages are of `limit` items, 200 by default: the fewest requests against the
   * key's per-minute budget. Positions are live, so sign-ups made while iterating can shift
   * subscribers across page boundaries.
   */
  async *iterate(
    waitlistId: string,
    params: IterateParams = {},
    options?: RequestOptions,
  ): AsyncGenerator<Subscriber, void, undefined> {
    const limit = params.limit ?? LIMIT_MAX;
    for (let page = 1; ; page++) {
      const result = await this.list(waitlistId, { ...params, page, limit }, options);
      yield* result.items;
      // The requested page and the applied limit: a server that clamped the limit or echoed the
      // wrong page number still ends the loop.
      if (result.items.length === 0 || page * result.limit >= result.total) return;
    }
  }

  /**
   * Signs someone up, server to server. A repeated create for the same address is answered like
   * the first (the service de-duplicates), which is also why the client may retry it.
   */
  async create(waitlistId: string, params: CreateParams, options?: RequestOptions): Promise<SignupResult> {
    const path = subscribersPath('create', waitlistId);
    // Parsing also drops keys the body schema does not know, so only wire fields are sent.
    const body = ApiCreateSubscriberBodySchema.safeParse(params, { reportInput: true });
    if (!body.success) throw invalidArgument('create', body.error.issues[0]);
    const { data, rateLimit } = await this.#transport.request(
      { method: 'post', path, json: body.data, schema: AcceptedSignupSchema, label: 'AcceptedSignup' },
      options,
    );
    return { ...data, rateLimit };
  }
}
