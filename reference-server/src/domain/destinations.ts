/**
 * Where a webhook may be sent (docs/webhooks.md#destinations): an https URL whose host is, and resolves to, a
 * public address. Loopback, private, link-local and the other special ranges are refused, so
 * a tenant cannot make the server call into its own network (SSRF), unless the operator allows
 * private destinations for a self-hosted setup (WAITLIST_WEBHOOK_ALLOW_PRIVATE=1). Pure: the
 * caller resolves the name and passes the addresses in.
 */
import { isIP } from 'node:net';
import { v4Number, v6Groups } from './ip-address.js';

export type UrlVerdict = { ok: true; url: URL } | { ok: false; reason: string };

/** The URL's own rules, before any lookup: https (or http when private targets are allowed), no credentials. */
export function checkWebhookUrl(input: string, allowPrivate: boolean): UrlVerdict {
  let url: URL;
  try {
    url = new URL(input);
  } catch {
    return { ok: false, reason: `${JSON.stringify(input)} is not a URL.` };
  }
  if (url.protocol !== 'https:' && !(allowPrivate && url.protocol === 'http:')) {
    return { ok: false, reason: 'A webhook URL must use https.' };
  }
  if (url.username || url.password) return { ok: false, reason: 'A webhook URL must not carry credentials.' };
  if (input.length > 2000) return { ok: false, reason: 'A webhook URL must be at most 2000 characters.' };
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (isIP(host) && !allowPrivate && !isPublicAddress(host)) {
    return { ok: false, reason: `${host} is not a public address.` };
  }
  return { ok: true, url };
}

/** [first address, prefix length] of the IPv4 ranges that are not the public internet. */
const V4_SPECIAL: readonly [string, number][] = [
  ['0.0.0.0', 8], // "this network"
  ['10.0.0.0', 8], // private
  ['100.64.0.0', 10], // carrier-grade NAT
  ['127.0.0.0', 8], // loopback
  ['169.254.0.0', 16], // link-local (cloud metadata lives here)
  ['172.16.0.0', 12], // private
  ['192.0.0.0', 24], // IETF protocol assignments
  ['192.0.2.0', 24], // documentation
  ['192.168.0.0', 16], // private
  ['198.18.0.0', 15], // benchmarking
  ['198.51.100.0', 24], // documentation
  ['203.0.113.0', 24], // documentation
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, broadcast
];

function inV4Range(address: string, [first, bits]: readonly [string, number]): boolean {
  const size = 2 ** (32 - bits);
  return Math.floor(v4Number(address) / size) === Math.floor(v4Number(first) / size);
}

/** True for an address on the public internet; false for loopback, private, link-local and the like. */
export function isPublicAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return !V4_SPECIAL.some((range) => inV4Range(address, range));
  if (family !== 6) return false;
  const g = v6Groups(address);
  const [a = 0, b = 0] = g;
  // IPv4-mapped (::ffff:a.b.c.d) and IPv4-compatible addresses are judged as the IPv4 address.
  if (g.slice(0, 5).every((x) => x === 0) && (g[5] === 0xffff || g[5] === 0)) {
    const [hi = 0, lo = 0] = g.slice(6);
    if (g[5] === 0xffff || hi !== 0 || lo > 1) {
      return isPublicAddress(`${hi >>> 8}.${hi & 0xff}.${lo >>> 8}.${lo & 0xff}`);
    }
    return false; // :: and ::1
  }
  if ((a & 0xfe00) === 0xfc00) return false; // unique local fc00::/7
  if ((a & 0xffc0) === 0xfe80) return false; // link-local fe80::/10
  if ((a & 0xff00) === 0xff00) return false; // multicast
  if (a === 0x2001 && b === 0x0db8) return false; // documentation
  if (a === 0x0064 && b === 0xff9b) return false; // NAT64: the IPv4 inside decides, refused to be safe
  return true;
}

/**
 * The addresses of a host that no nameserver is asked about: an IP literal is itself, and
 * `localhost` (with its subdomains, RFC 6761) is loopback. Undefined for a name to look up.
 */
export function fixedAddresses(host: string): string[] | undefined {
  const bare = host.replace(/^\[|\]$/g, '');
  if (isIP(bare)) return [bare];
  const name = bare.toLowerCase().replace(/\.$/, '');
  if (name === 'localhost' || name.endsWith('.localhost')) return ['127.0.0.1', '::1'];
  return undefined;
}

/** Why the addresses a name resolved to may not be called: none, or one that is not public. */
export type AddressRefusal = 'no_address' | 'not_public';

/** Every address a name resolved to must be public: one private answer is enough to refuse. */
export function addressVerdict(
  addresses: readonly string[],
  allowPrivate: boolean,
): AddressRefusal | undefined {
  if (addresses.length === 0) return 'no_address';
  if (allowPrivate) return undefined;
  return addresses.every(isPublicAddress) ? undefined : 'not_public';
}

/**
 * The verdict at creation, as the admin reads it. The private address is not named: what a name
 * resolves to through the server's own nameserver (split-horizon DNS) is the inside's business.
 */
export function resolvedVerdict(addresses: readonly string[], allowPrivate: boolean): string | undefined {
  const refused = addressVerdict(addresses, allowPrivate);
  if (refused === 'no_address') return 'The host name does not resolve.';
  if (refused === 'not_public') return 'The host name resolves to an address that is not public.';
  return undefined;
}
