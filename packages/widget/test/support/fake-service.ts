/**
 * The public subscribe endpoint as docs/ describes it (docs/protocol.md#order-of-checks,
 * docs/gates.md#proof-of-work, docs/gates.md#challenge), for msw: real nonces, checked with the protocol's `verifyPow`; tokens that
 * must reach their minimum age; every token and nonce accepted once.
 */
import { randomBytes } from 'node:crypto';
import {
  type FieldDefinition,
  type FieldValues,
  type PublicSubscribeBody,
  type Source,
  verifyPow,
} from '@waitlistkit/protocol';
import { HttpResponse, http } from 'msw';
import { AbortError } from '../../src/core/errors.js';

export const BASE_URL = 'https://api.waitlist.test';
export const WAITLIST_ID = 'wl_0123456789abcdef';
export const ENDPOINT = `${BASE_URL}/v1/public/waitlists/:id/subscribers`;
export const GATES = `${BASE_URL}/v1/public/waitlists/:id/gates`;
export const FORM = `${BASE_URL}/v1/public/waitlists/:id/form`;

/** `GET …/form` (docs/endpoints.md#the-form): the waitlist's fields; none unless given. */
export const formDescription = (fields: FieldDefinition[] = []) =>
  http.get(FORM, ({ params }) =>
    params.id === WAITLIST_ID
      ? HttpResponse.json({ fields })
      : HttpResponse.json({ error: { code: 'not_found', message: 'not_found (test)' } }, { status: 404 }),
  );

export const VIEWS = `${BASE_URL}/v1/public/waitlists/:id/views`;

/** `POST …/views` (docs/insights.md#views): each view as the service received it. */
export function viewCounter() {
  const views: { id: string; contentType: string | null; body: unknown }[] = [];
  const handler = http.post(VIEWS, async ({ request, params }) => {
    const contentType = request.headers.get('content-type');
    views.push({ id: String(params.id), contentType, body: JSON.parse(await request.text()) });
    return new HttpResponse(null, { status: 204 });
  });
  // happy-dom's sendBeacon asks a preflight of every cross-origin request, a simple one too
  // (a browser asks none for text/plain): answered as the service would answer one.
  const preflight = http.options(
    VIEWS,
    () =>
      new HttpResponse(null, {
        status: 204,
        headers: { 'access-control-allow-origin': '*', 'access-control-allow-methods': 'POST' },
      }),
  );
  return { handler, preflight, views };
}

export interface ServiceOptions {
  challenge?: { minAgeMs: number };
  pow?: { difficulty: number };
  referrals?: boolean;
  /** The waitlist confirms addresses: the 202 carries `Waitlist-Confirm-Email: on` (docs/subscribers.md#email-confirmation). */
  confirmEmail?: boolean;
  /** The service's clock, for token ages. */
  now?: () => number;
  /** Answers the next requests with these instead (status, body, headers), one each. */
  script?: { status: number; body?: unknown; headers?: Record<string, string> }[];
  /** Refuse this many valid challenge tokens / solved nonces (as if expired): each gets a fresh 428. */
  refuseTokens?: number;
  refuseNonces?: number;
}

/** 63 characters, like the reference server's nonces: `nonce:` fills one SHA-256 block. */
export const newNonce = () => `p1.${randomBytes(45).toString('base64url')}`.slice(0, 63);

export function fakeService(options: ServiceOptions = {}) {
  const now = options.now ?? (() => Date.now());
  const tokens = new Map<string, number>();
  const nonces = new Map<string, number>();
  const requests: {
    body: PublicSubscribeBody & { fields?: FieldValues; source?: Source };
    headers: Headers;
    signal: AbortSignal;
  }[] = [];
  const script = [...(options.script ?? [])];
  let refuseTokens = options.refuseTokens ?? 0;
  let refuseNonces = options.refuseNonces ?? 0;
  const error = (status: number, code: string, headers?: Record<string, string>) =>
    HttpResponse.json({ error: { code, message: `${code} (test)` } }, { status, headers });

  const handler = http.post(ENDPOINT, async ({ request, params }) => {
    const body = (await request.json()) as (typeof requests)[number]['body'];
    requests.push({ body, headers: request.headers, signal: request.signal });
    const next = script.shift();
    if (next) {
      return next.body === undefined
        ? new HttpResponse(null, { status: next.status, headers: next.headers })
        : HttpResponse.json(next.body, { status: next.status, headers: next.headers });
    }
    if (params.id !== WAITLIST_ID) return error(404, 'not_found');
    if (!body.email?.includes('@')) return error(400, 'invalid_email');
    if (options.challenge) {
      const issued = body.challenge_token === undefined ? undefined : tokens.get(body.challenge_token);
      let fresh = issued !== undefined && now() - issued >= options.challenge.minAgeMs;
      if (fresh && refuseTokens > 0) {
        refuseTokens--;
        fresh = false;
      }
      if (!fresh) {
        const token = randomBytes(12).toString('base64url');
        tokens.set(token, now());
        return HttpResponse.json(
          {
            status: 'challenge_required',
            gate: 'challenge',
            challenge: { token, min_age_ms: options.challenge.minAgeMs },
          },
          { status: 428 },
        );
      }
    }
    if (options.pow) {
      const { difficulty } = options.pow;
      const pow = body.pow;
      let valid =
        pow !== undefined &&
        nonces.get(pow.nonce) === difficulty &&
        verifyPow(pow.nonce, pow.solution, difficulty);
      if (valid && refuseNonces > 0) {
        refuseNonces--;
        valid = false;
      }
      if (!valid) {
        const nonce = newNonce();
        nonces.set(nonce, difficulty);
        return HttpResponse.json(
          { status: 'challenge_required', gate: 'pow', pow: { nonce, difficulty } },
          { status: 428 },
        );
      }
      nonces.delete((pow as { nonce: string }).nonce);
    }
    if (body.challenge_token) tokens.delete(body.challenge_token);
    const referrals = options.referrals ?? true;
    return HttpResponse.json(
      {
        status: 'accepted',
        status_token: referrals ? 'tok_status' : '',
        referral_code: referrals ? 'K7M2QX' : '',
        status_url: referrals ? 'https://app.waitlist.test/s/tok_status' : '',
      },
      { status: 202, headers: options.confirmEmail ? { 'Waitlist-Confirm-Email': 'on' } : {} },
    );
  });

  /** `POST .../gates` (docs/gates.md#gates-before-the-submit): fresh tokens for whatever gates are on, counted in `gateRequests`. */
  let gateRequests = 0;
  const gates = http.post(GATES, ({ params }) => {
    gateRequests++;
    if (params.id !== WAITLIST_ID) return error(404, 'not_found');
    const body: Record<string, unknown> = {};
    if (options.challenge) {
      const token = randomBytes(12).toString('base64url');
      tokens.set(token, now());
      body.challenge = { token, min_age_ms: options.challenge.minAgeMs };
    }
    if (options.pow) {
      const nonce = newNonce();
      nonces.set(nonce, options.pow.difficulty);
      body.pow = { nonce, difficulty: options.pow.difficulty };
    }
    return HttpResponse.json(body);
  });

  return {
    handler,
    gates,
    requests,
    tokens,
    nonces,
    get gateRequests() {
      return gateRequests;
    },
  };
}

/** A clock whose `sleep` advances time at once, recording every wait. */
export function fakeClock(start = 1_000_000) {
  let time = start;
  const sleeps: number[] = [];
  return {
    sleeps,
    advance: (ms: number) => {
      time += ms;
    },
    now: () => time,
    sleep: async (ms: number, signal?: AbortSignal) => {
      if (signal?.aborted) throw new AbortError();
      sleeps.push(ms);
      time += ms;
    },
  };
}
