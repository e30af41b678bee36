/**
 * A DNS server on loopback (dns2) for the MX check and webhook destinations. Zones map a name to
 * its records: a list of MX records (as the MX tests give them), or `{ mx, a, aaaa }`. A name
 * missing from the zones is NXDOMAIN; a name without records of the type asked is NODATA.
 * Zones may be a function that answers each question on its own, told how many times the name
 * and type were asked before: the first answer can differ from the second (DNS rebinding).
 * `blackhole()` is a resolver that reads queries and never answers, for stalled lookups.
 */
import { createSocket } from 'node:dgram';
import type { AddressInfo } from 'node:net';
import dns2 from 'dns2';

export interface MxRecordSpec {
  exchange: string;
  priority: number;
}

export interface ZoneRecords {
  mx?: MxRecordSpec[];
  a?: string[];
  aaaa?: string[];
  /** Seconds the answer may be cached; 60 unless given (0 for a name that must be asked again). */
  ttl?: number;
}

export type Zone = MxRecordSpec[] | ZoneRecords;

/** One question as the server saw it: `asked` counts earlier questions of the same name and type. */
export interface DnsQuestion {
  name: string;
  type: string;
  asked: number;
}

export type Zones = Record<string, Zone> | ((question: DnsQuestion) => Zone | undefined);

export interface DnsServer {
  address: string;
  /** The names asked, in order (every type). */
  queries: string[];
  questions: DnsQuestion[];
  close(): Promise<void>;
}

export interface DnsServerOptions {
  /** Awaited before each answer is sent: a test can hold a lookup while it acts. */
  beforeAnswer?: (name: string) => Promise<void> | void;
}

const { Packet } = dns2;
const TYPE_NAMES = new Map(Object.entries(Packet.TYPE).map(([name, code]) => [code as number, name]));

/** The question's name: lower case, without the final dot. */
function nameOf(question: { name?: string } | undefined): string {
  return (question?.name ?? '').toLowerCase().replace(/\.$/, '');
}

function records(zone: Zone, type: string): { type: number; data: object }[] {
  const { mx = [], a = [], aaaa = [] } = Array.isArray(zone) ? { mx: zone } : zone;
  if (type === 'MX') return mx.map((record) => ({ type: Packet.TYPE.MX, data: record }));
  if (type === 'A') return a.map((address) => ({ type: Packet.TYPE.A, data: { address } }));
  if (type === 'AAAA') return aaaa.map((address) => ({ type: Packet.TYPE.AAAA, data: { address } }));
  return [];
}

export async function startDnsServer(zones: Zones, options: DnsServerOptions = {}): Promise<DnsServer> {
  const queries: string[] = [];
  const questions: DnsQuestion[] = [];
  const asked = new Map<string, number>();
  const server = dns2.createServer({
    udp: true,
    handle: async (request, send) => {
      const response = Packet.createResponseFromRequest(request);
      const question = request.questions[0];
      const name = nameOf(question);
      const type = TYPE_NAMES.get(question?.type as number) ?? String(question?.type);
      const key = `${name} ${type}`;
      const seen: DnsQuestion = { name, type, asked: asked.get(key) ?? 0 };
      asked.set(key, seen.asked + 1);
      queries.push(name);
      questions.push(seen);
      const zone = typeof zones === 'function' ? zones(seen) : zones[name];
      if (zone === undefined) {
        response.header.rcode = 3; // NXDOMAIN
      } else {
        const ttl = Array.isArray(zone) ? 60 : (zone.ttl ?? 60);
        for (const record of records(zone, type)) {
          const answer = { name, type: record.type, class: Packet.CLASS.IN, ttl, ...record.data };
          response.answers.push(answer as unknown as (typeof response.answers)[number]);
        }
      }
      await options.beforeAnswer?.(name);
      void send(response);
    },
  });
  const addresses = await server.listen({ udp: { port: 0, address: '127.0.0.1' } });
  const { port } = addresses.udp as AddressInfo;
  return { address: `127.0.0.1:${port}`, queries, questions, close: () => server.close() };
}

export interface Blackhole {
  address: string;
  /** The names asked so far, in order (never answered). */
  queries: string[];
  close(): Promise<void>;
}

/** A UDP socket that reads queries and never answers. */
export async function blackhole(): Promise<Blackhole> {
  const socket = createSocket('udp4');
  const queries: string[] = [];
  socket.on('message', (message) => {
    try {
      queries.push(nameOf(Packet.parse(message).questions[0]));
    } catch {
      queries.push('');
    }
  });
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
  const { port } = socket.address();
  return {
    address: `127.0.0.1:${port}`,
    queries,
    close: () => new Promise((resolve) => socket.close(() => resolve())),
  };
}
