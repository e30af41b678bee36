/** The addresses a host name resolves to, through the system's resolver (for webhook destinations). */
import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';

export async function resolveHost(host: string): Promise<string[]> {
  const bare = host.replace(/^\[|\]$/g, '');
  if (isIP(bare)) return [bare];
  try {
    return (await lookup(bare, { all: true })).map((a) => a.address);
  } catch {
    return [];
  }
}
