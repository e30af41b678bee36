/**
 * The order of checks, docs/protocol.md#order-of-checks, as data, and the walk that follows it. A use case builds the
 * walk of an endpoint once, `checks(ORDER).from<State>()` and one `.check(name, fn)` per name of
 * the order in its sequence (the compiler refuses a name out of turn, and `run` before the last
 * one), then runs it per request. So the order lives here once and cannot drift between endpoints,
 * and what a check established is a typed fact for every check after it, never a guess.
 */
/** What every customer API request passes first, in this order. */
export const API_ACCESS_ORDER = [
  'auth', // 401
  'key_budget', // 429, counted for every authenticated request
  'plan', // 403 feature_not_allowed
  'scope', // 403 insufficient_scope
  'waitlist', // 404: missing, archived, or another tenant's
] as const;

export const API_CREATE_ORDER = [
  ...API_ACCESS_ORDER,
  'body', // 400
  'email_throttle', // 429
  'disposable', // 400 invalid_email
  'mx', // 400 invalid_email
  'geo', // 403 geo_restricted
] as const;

export const API_LIST_ORDER = [...API_ACCESS_ORDER, 'query'] as const;
/** GET and DELETE of one subscriber: an unknown id, or one of another waitlist, is a 404 too. */
export const API_SUBSCRIBER_ORDER = [...API_ACCESS_ORDER, 'subscriber'] as const;
export const API_ADMIT_ORDER = [...API_ACCESS_ORDER, 'body'] as const;
/** `GET .../stats` (docs/insights.md#stats): `from` and `to` a range of at most 366 days, or 400. */
export const API_STATS_ORDER = [...API_ACCESS_ORDER, 'range'] as const;

/** What both public endpoints (subscribe and its gates) pass first, in this order. */
export const PUBLIC_ENTRY_ORDER = [
  'waitlist', // 404 (and the origin below: one status for every refusal)
  'origin', // 404
  'ip_throttle', // 429, counts every request that got past 404
] as const;

export const PUBLIC_ORDER = [
  ...PUBLIC_ENTRY_ORDER,
  'body', // 413 / 415 / 400
  'challenge', // 428
  'pow', // 428
  // The gates' tokens are redeemed in the sign-up's own write (a 428 when a concurrent request
  // redeemed one first), or with the refusal of a check below: spent either way once passed.
  'email_throttle', // 429
  'disposable', // 400
  'mx', // 400; no DNS lookup before the gates are passed
  'geo', // 403
] as const;

/** `POST .../gates` (docs/gates.md#gates-before-the-submit): the subscribe endpoint's 404 and per-IP checks, then its own body. */
export const GATES_ORDER = [
  ...PUBLIC_ENTRY_ORDER,
  'gates_body', // 413 / 415 / 400: `{}` and nothing else
] as const;

/** `POST .../views` (docs/insights.md#views): the subscribe endpoint's 404 and per-IP checks, then its own body. */
export const VIEWS_ORDER = [
  ...PUBLIC_ENTRY_ORDER,
  'view_body', // 413 / 415 / 400: `{}` or `{"source": {…}}`
] as const;

// ------------------------------------------------------------------ the walk

type Order = readonly string[];

/** A check's answer that ends the walk: `stop` is what the use case answers. */
export interface Stop<A> {
  stop: A;
}

/**
 * What a check may answer: nothing (the request goes on), the facts it established (an object
 * whose fields every later check sees), or a `Stop`. A check that establishes a fact on one
 * path only establishes nothing as far as the types know: say `{ fact: undefined }` instead.
 */
type Answer = object | undefined;
type Established<R> = R extends undefined ? unknown : R extends Stop<unknown> ? never : R;
type StopOf<R> = R extends Stop<infer A> ? A : never;
type Tail<O extends Order> = O extends readonly [string, ...infer T extends Order] ? T : readonly [];
type After<O extends Order, P extends Order> = O extends readonly [...P, ...infer T extends Order]
  ? T
  : never;

/** A walk's end: stopped by a check, with the facts established before it, or through, with all. */
export type Walked<In, S, A> = { stop: A; state: In & Partial<S> } | { stop?: undefined; state: S };

// A check as the walk holds it: typed, when it was given, against the state of its place.
type Step = (state: never) => Answer | Promise<Answer>;

/**
 * The checks of `O`, those of `Rest` still to give, over a request's state `In`, with `S` what
 * the checks given so far established and `A` how they stop.
 */
export class Checks<O extends Order, Rest extends Order, In, S, A> {
  constructor(
    private readonly order: O,
    private readonly steps: readonly Step[],
  ) {}

  /** The next check of the order: `name` is the one the order names next. */
  check<R extends Answer | Promise<Answer>>(
    name: Rest[0],
    fn: (state: S) => R,
  ): Checks<O, Tail<Rest>, In, S & Established<Awaited<R>>, A | StopOf<Awaited<R>>> {
    if (name !== this.order[this.steps.length]) throw new Error(`check ${name} out of the order's turn`);
    return new Checks(this.order, [...this.steps, fn]);
  }

  /** These checks, complete, as the first of a longer order's (API_CREATE_ORDER after API_ACCESS_ORDER). */
  prefixOf<Longer extends readonly [...O, ...string[]]>(
    this: Checks<O, readonly [], In, S, A>,
    order: Longer,
  ): Checks<Longer, After<Longer, O>, In, S, A> {
    if (this.order.some((name, i) => order[i] !== name))
      throw new Error(`not a prefix of ${order.join(', ')}`);
    return new Checks(order, this.steps);
  }

  /**
   * Walks `state`, an object of this request's own, through the checks in order, up to the
   * first stop. It gains the facts as they are established (no copy per check: this runs on
   * every request); a check that answers without a promise runs without a turn of the event loop.
   */
  async run(this: Checks<O, readonly [], In, S, A>, state: In & object): Promise<Walked<In, S, A>> {
    for (const step of this.steps) {
      // The state has, here, what the check was typed against when it was given (`check`).
      let answer = step(state as never);
      if (answer instanceof Promise) answer = await answer;
      if (answer === undefined) continue;
      if ('stop' in answer) return { stop: answer.stop as A, state };
      Object.assign(state, answer);
    }
    // Every check answered with its facts (or none): the state is all the walk established.
    return { state: state as In & object as S };
  }
}

/** The start of a walk of `order`: `.from<State>()` names the request's state it starts from. */
export function checks<O extends Order>(order: O): { from<In>(): Checks<O, O, In, In, never> } {
  return { from: () => new Checks(order, []) };
}
