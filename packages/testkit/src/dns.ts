/**
 * A DNS server on loopback for MX tests (dns2). Zones map a domain to its MX records; a domain
 * missing from the zones is NXDOMAIN; a domain with an empty list has records of other types
 * only (NODATA). `blackhole()` is a resolver that never answers, for the fail-open case.
 */
import { createSocket } from 'node:dgram';
import type { AddressInfo } from 'node:net';
import dns2 from 'dns2';

export interface MxRecordSpec {
  exchange: string;
  priority: number;
}

export interface DnsServer {
  address: string;
  queries: string[];
  close(): Promise<void>;
}

export interface DnsServerOptions {
  /** Awaited before each answer is sent: a test can hold a lookup while it acts. */
  beforeAnswer?: (name: string) => Promise<void> | void;
}

export async function startDnsServer(
  zones: Record<string, MxRecordSpec[]>,
  options: DnsServerOptions = {},
): Promise<DnsServer> {
  const { Packet } = dns2;
  const queries: string[] = [];
  const server = dns2.createServer({
    udp: true,
    handle: async (request, send) => {
      const response = Packet.createResponseFromRequest(request);
      const question = request.questions[0];
      const name = (question?.name ?? '').toLowerCase().replace(/\.$/, '');
      queries.push(name);
      const records = zones[name];
      if (records === undefined) {
        response.header.rcode = 3; // NXDOMAIN
      } else if (question?.type === Packet.TYPE.MX) {
        for (const record of records) {
          const answer = { name, type: Packet.TYPE.MX, class: Packet.CLASS.IN, ttl: 60, ...record };
          response.answers.push(answer as unknown as (typeof response.answers)[number]);
        }
      }
      await options.beforeAnswer?.(name);
      void send(response);
    },
  });
  const addresses = await server.listen({ udp: { port: 0, address: '127.0.0.1' } });
  const { port } = addresses.udp as AddressInfo;
  return { address: `127.0.0.1:${port}`, queries, close: () => server.close() };
}

/** A UDP socket that reads queries and never answers. */
export async function blackhole(): Promise<{ address: string; close(): Promise<void> }> {
  const socket = createSocket('udp4');
  socket.on('message', () => undefined);
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
  const { port } = socket.address();
  return {
    address: `127.0.0.1:${port}`,
    close: () => new Promise((resolve) => socket.close(() => resolve())),
  };
}
