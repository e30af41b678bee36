/** Decisions of the anti-abuse gates that need no I/O: geo rules, disposable domains, MX answers. */

/**
 * The geo rule's verdict for a country. With an allow list, an unknown country is refused (the
 * operator asked for only those countries); with a deny list, it passes.
 */
export function geoAllows(
  rules: { geo_allow: readonly string[]; geo_deny: readonly string[] },
  country: string | undefined,
): boolean {
  if (rules.geo_allow.length > 0) return country !== undefined && rules.geo_allow.includes(country);
  if (rules.geo_deny.length > 0) return country === undefined || !rules.geo_deny.includes(country);
  return true;
}

/** True when `domain` or any parent domain of it is on a list (sub.mailinator.com is mailinator.com). */
export function domainListed(domain: string, lists: readonly { has(d: string): boolean }[]): boolean {
  const labels = domain.split('.');
  for (let i = 0; i < labels.length - 1; i++) {
    const candidate = labels.slice(i).join('.');
    if (lists.some((list) => list.has(candidate))) return true;
  }
  return false;
}

export interface MxRecord {
  exchange: string;
  priority: number;
}

/** docs/subscribers.md#checks-on-the-address: at least one MX record that is not a null MX (RFC 7505: one record, exchange "."). */
export function mxAccepts(records: readonly MxRecord[]): boolean {
  return records.some((r) => r.exchange !== '' && r.exchange !== '.');
}
