/**
 * The client an address is counted as, for every rule that counts per client address (contract
 * §25: the per-IP window of §5, the repeat price and the surge of §16, the sign-in throttle, the
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

/** The key of an address that cannot be read: all such clients share its budget. */
export const UNKNOWN_CLIENT = 'unknown';

export function clientKey(address: string | undefined): string {
  if (address === undefined) return UNKNOWN_CLIENT;
  const bare = address.toLowerCase().replace(/%.*$/s, '');
  const family = isIP(bare);
  if (family === 4) return bare;
  if (family !== 6) return UNKNOWN_CLIENT;
  const groups = ipv6Groups(bare);
  if (groups.slice(0, 5).every((g) => g === 0) && groups[5] === 0xffff) {
    const [high, low] = groups.slice(6) as [number, number];
    return [high >> 8, high & 0xff, low >> 8, low & 0xff].join('.');
  }
  return `${groups
    .slice(0, 4)
    .map((g) => g.toString(16))
    .join(':')}::/64`;
}

/** The eight 16-bit groups of an address `isIP` accepts as IPv6 (`::` expanded, a dotted tail split). */
function ipv6Groups(address: string): number[] {
  const halves = address.split('::');
  const parts = (text: string | undefined): number[] =>
    text
      ? text.split(':').flatMap((part) => {
          if (!part.includes('.')) return [Number.parseInt(part, 16)];
          const [a, b, c, d] = part.split('.').map(Number) as [number, number, number, number];
          return [(a << 8) | b, (c << 8) | d];
        })
      : [];
  const head = parts(halves[0]);
  const tail = parts(halves[1]);
  return [...head, ...Array<number>(8 - head.length - tail.length).fill(0), ...tail];
}
