/**
 * Host names to addresses, for webhook destinations and the MX check, through c-ares
 * (`dns.promises.Resolver`). c-ares waits for its answers on the event loop; `dns.lookup` would
 * wait on one of libuv's four pool threads, which scrypt and every sqlite3 statement share, so a
 * tenant's nameserver that never answers could stall sign-ups. One configuration for both users:
 * `WAITLIST_DNS_SERVERS` (else the system's nameservers), a 2 s timeout and one try, so a lookup
 * gives up after about 3 s. Names are asked of DNS, not /etc/hosts; `localhost` is loopback
 * (domain/destinations.ts `fixedAddresses`).
 */
import { Resolver } from 'node:dns/promises';
import { fixedAddresses } from '../domain/destinations.js';
import { DomainError } from '../domain/errors.js';

export const DNS_TIMEOUT_MS = 2000;
export const DNS_TRIES = 1;

/** `WAITLIST_DNS_SERVERS`: comma-separated `host:port` (or `[v6]:port`) resolvers. */
export function parseDnsServers(value: string | undefined): string[] | undefined {
  const servers = value
    ?.split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  return servers && servers.length > 0 ? servers : undefined;
}

/** The resolver of `WAITLIST_DNS_SERVERS` (or the system's servers when it is unset). */
export function dnsResolver(servers: readonly string[] | undefined): Resolver {
  const resolver = new Resolver({ timeout: DNS_TIMEOUT_MS, tries: DNS_TRIES });
  if (servers && servers.length > 0) {
    try {
      resolver.setServers([...servers]);
    } catch {
      throw new DomainError(
        'usage_error',
        `WAITLIST_DNS_SERVERS must be comma-separated addresses such as 10.0.0.2 or 127.0.0.1:5353, not ${JSON.stringify(servers.join(','))}.`,
      );
    }
  }
  return resolver;
}

/**
 * Every A and AAAA address of `host` (both asked at once), IPv4 first; none when the name does
 * not resolve, whatever the reason (no such name, no record, a nameserver that failed or never
 * answered).
 */
export async function hostAddresses(resolver: Resolver, host: string): Promise<string[]> {
  const fixed = fixedAddresses(host);
  if (fixed) return fixed;
  const answers = await Promise.allSettled([resolver.resolve4(host), resolver.resolve6(host)]);
  return answers.flatMap((a) => (a.status === 'fulfilled' ? a.value : []));
}
