/** What the commands print: the shapes of docs/command-line.md#commands. */
import type { ApiKey, Waitlist } from '../domain/records.js';

/** A waitlist: settings flattened beside the identity. */
export function waitlistJson(w: Waitlist): Record<string, unknown> {
  return {
    waitlist_id: w.id,
    tenant_id: w.tenant_id,
    name: w.name,
    archived: w.archived,
    ...w.settings,
    created_at: w.created_at,
    updated_at: w.updated_at,
  };
}

/** The listed form of a key: never its value or hash. */
export function keyJson(key: ApiKey): Record<string, unknown> {
  return {
    id: key.id,
    name: key.name,
    prefix: key.prefix,
    scopes: key.scopes,
    state: key.state,
    created_at: key.created_at,
    last_used_at: key.last_used_at,
    revoked_at: key.revoked_at,
  };
}

/**
 * `{"items":[…]}` written a page at a time, for lists with no size limit: memory stays flat
 * however long the list, and the output is still the one JSON object docs/command-line.md#commands promises.
 */
export async function printItems(
  stdout: (text: string) => void,
  pages: AsyncIterable<readonly unknown[]>,
): Promise<undefined> {
  stdout('{"items":[');
  let first = true;
  for await (const page of pages) {
    if (page.length === 0) continue;
    stdout(`${first ? '' : ','}${page.map((item) => JSON.stringify(item)).join(',')}`);
    first = false;
  }
  stdout(']}\n');
  return undefined;
}
