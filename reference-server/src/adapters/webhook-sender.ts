/**
 * Sending one webhook attempt over HTTP: a POST with a 15 s budget, redirects not followed
 * (contract §14), and, unless private destinations are allowed, the host's addresses checked
 * again at send time: a name that has come to point inward is refused, not called.
 */
import { resolvedVerdict } from '../domain/destinations.js';
import { resolveHost } from './resolver.js';

export type SendResult = { status: number } | { error: string };

export interface Sender {
  send(url: string, headers: Record<string, string>, body: string, timeoutMs: number): Promise<SendResult>;
}

function describe(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  if (error.name === 'TimeoutError') return 'timed out';
  return error.cause instanceof Error ? `${error.message}: ${error.cause.message}` : error.message;
}

export function webhookSender(allowPrivate: boolean): Sender {
  return {
    async send(url, headers, body, timeoutMs) {
      try {
        if (!allowPrivate) {
          const refused = resolvedVerdict(await resolveHost(new URL(url).hostname), false);
          if (refused) return { error: refused };
        }
        const res = await fetch(url, {
          method: 'POST',
          headers,
          body,
          redirect: 'manual',
          signal: AbortSignal.timeout(timeoutMs),
        });
        // Read (and drop) the answer so the connection can be reused; its content is not ours to keep.
        await res.arrayBuffer().catch(() => undefined);
        return { status: res.status };
      } catch (error) {
        return { error: describe(error) };
      }
    },
  };
}
