/**
 * The client an address is counted as, for every rule that counts per client address (
 * docs/protocol.md#client-addresses: the per-IP window of docs/protocol.md#throttles-and-budgets, the repeat price and the surge of docs/gates.md#adaptive-difficulty, the sign-in throttle, the
 * confirmation button). An IPv4 client is its address; an IPv6 client is its /64, because every
 * IPv6 host is handed a whole /64 and picks addresses from it at will: counting addresses would
 * give one machine 2^64 budgets. An IPv4-mapped address (`::ffff:a.b.c.d`, in any spelling) is
 * the IPv4 client a.b.c.d.
 *
 * Pure and total: a zone id (`fe80::1%eth0`) and letter case are ignored, and anything that is
 * not an address (there is none from a socket or from `web/client-ip.ts`, but a key must never
 * throw) is counted under one fixed key, so it shares a single budget rather than escaping them.
 * Geo lookups keep the full address; only counting uses this key.
 */
import { isIP } from 'node:net';
import { v6Groups } from './ip-address.js';

/** The key of an address that cannot be read: all such clients share its budget. */
export const UNKNOWN_CLIENT = 'unknown';

export function clientKey(address: string | undefined): string {
  if (address === undefined) return UNKNOWN_CLIENT;
  const bare = address.toLowerCase().replace(/%.*$/s, '');
  const family = isIP(bare);
  if (family === 4) return bare;
  if (family !== 6) return UNKNOWN_CLIENT;
  const groups = v6Groups(bare);
  if (groups.slice(0, 5).every((g) => g === 0) && groups[5] === 0xffff) {
    const [high, low] = groups.slice(6) as [number, number];
    return [high >> 8, high & 0xff, low >> 8, low & 0xff].join('.');
  }
  return `${groups
    .slice(0, 4)
    .map((g) => g.toString(16))
    .join(':')}::/64`;
}
