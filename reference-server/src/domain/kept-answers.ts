/**
 * Who a kept answer (docs/protocol.md#idempotency-key) names, and what is left of it once one of them is erased
 * (docs/subscribers.md#erasure). A kept answer is the JSON of an API outcome, `{ok, value}` or `{ok, refusal}`:
 * - an admission's lists the people it let in, `value.items`, each with its `id`;
 * - a create's gives the new (or matched) subscriber's `status_token`, `referral_code` and
 *   `status_url`, but not its id: the token is how the store finds whom it names;
 * - a refusal names nobody.
 * An erased person leaves the answer, and the answer stays: a retry with its Idempotency-Key is
 * still a replay (an admission must not admit anew, a create must not create anew), that says
 * who was admitted, minus the erased, and no longer hands out what let the erased one act.
 */

export interface Mentions {
  /** Subscriber ids, as an admission lists them. */
  ids: string[];
  /** Status tokens, as a create gives them: each names the subscriber holding it. */
  statusTokens: string[];
}

type Outcome = { ok: true; value: unknown } | { ok: false };

interface Items {
  items: { id?: unknown }[];
}

interface Created {
  status_token: string;
  referral_code: string;
  status_url: string;
}

function parse(answer: string): Outcome | undefined {
  try {
    const outcome = JSON.parse(answer) as Outcome;
    return typeof outcome === 'object' && outcome !== null ? outcome : undefined;
  } catch {
    return undefined;
  }
}

function itemsOf(value: unknown): Items | undefined {
  return typeof value === 'object' && value !== null && Array.isArray((value as Items).items)
    ? (value as Items)
    : undefined;
}

function createdOf(value: unknown): Created | undefined {
  return typeof value === 'object' && value !== null && typeof (value as Created).status_token === 'string'
    ? (value as Created)
    : undefined;
}

/** Whom `answer` names; an answer that is not an outcome names nobody. */
export function mentionsIn(answer: string): Mentions {
  const outcome = parse(answer);
  if (!outcome?.ok) return { ids: [], statusTokens: [] };
  const items = itemsOf(outcome.value);
  if (items) {
    const ids = items.items.map((item) => item.id).filter((id): id is string => typeof id === 'string');
    return { ids, statusTokens: [] };
  }
  const created = createdOf(outcome.value);
  // With referrals off the token is empty: such an answer holds nothing of the person.
  return { ids: [], statusTokens: created && created.status_token !== '' ? [created.status_token] : [] };
}

function rewritten(answer: string, change: (value: unknown) => void): string {
  const outcome = parse(answer);
  if (!outcome?.ok) return answer;
  change(outcome.value);
  return JSON.stringify(outcome);
}

/** An admission's answer without the item of `id`; the others stay, in their order. */
export function withoutItem(answer: string, id: string): string {
  return rewritten(answer, (value) => {
    const items = itemsOf(value);
    if (items) items.items = items.items.filter((item) => item.id !== id);
  });
}

/**
 * A create's answer without what identifies or empowers its subscriber: the status token (the
 * status page), the referral code and the status URL are emptied, as for a waitlist without
 * referrals, so the answer keeps the shape a client parses.
 */
export function withoutCreated(answer: string): string {
  return rewritten(answer, (value) => {
    const created = createdOf(value);
    if (!created) return;
    created.status_token = '';
    created.referral_code = '';
    created.status_url = '';
  });
}

/**
 * `answer` without the erased subscriber `id`, an answer that names it (the store's index says
 * so): an admission loses its item; a create, which names only the subscriber it made or
 * matched, loses that one's token, code and URL.
 */
export function withoutErased(answer: string, id: string): string {
  const outcome = parse(answer);
  if (!outcome?.ok) return answer;
  return itemsOf(outcome.value) ? withoutItem(answer, id) : withoutCreated(answer);
}
