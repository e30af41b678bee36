import type { IncomingMessage } from 'node:http';
import { isIP } from 'node:net';

/**
 * The client's address: the socket peer, or with `--trust-proxy` the address our proxy appended
 * to X-Forwarded-For (its last entry: entries before it are whatever the client claimed). The
 * full address, for geo; rules that count per address count its client key (domain/client-key:
 * an IPv6 client by its /64).
 */
export function clientIp(req: IncomingMessage, trustProxy: boolean): string | undefined {
  let address = req.socket.remoteAddress;
  if (trustProxy) {
    const header = req.headers['x-forwarded-for'];
    const value = Array.isArray(header) ? header.join(',') : header;
    const last = value?.split(',').pop()?.trim();
    if (last && isIP(last)) address = last;
  }
  return address?.startsWith('::ffff:') && isIP(address.slice(7)) === 4 ? address.slice(7) : address;
}
