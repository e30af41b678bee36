/**
 * Sending one webhook attempt (docs/webhooks.md#delivery): a POST over node:http or node:https with a budget
 * for the whole attempt (lookup, connect, TLS, the answer's status line and headers); redirects
 * are not followed (a 3xx is a status like any other).
 *
 * The address checked is the address connected to: the connection's own `lookup` resolves the
 * name through the server's resolver (c-ares, adapters/resolver.ts) and refuses an answer that is
 * not public, so a name that answers a public address to one lookup and 127.0.0.1 to the next
 * (DNS rebinding) cannot lead the server inward. An IP literal is never looked up, so it is
 * checked before the request.
 *
 * The answer is the status: the attempt is settled when the headers arrive. Of the body, at most
 * a few KiB are read as they come on the wire (never decompressed), within a second, so that a
 * short answer leaves its connection to be reused; anything longer, slower or never-ending gets
 * its socket destroyed. Whatever the receiver sends, memory stays flat.
 *
 * A failure is recorded as one of the fixed sentences of domain/delivery-errors.ts; its detail
 * (addresses, ports, system codes) goes to the server's log.
 */
import type { LookupAddress, LookupOptions } from 'node:dns';
import type { Resolver } from 'node:dns/promises';
import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { deliveryErrorText, SENDER_CODES } from '../domain/delivery-errors.js';
import { addressVerdict, isPublicAddress } from '../domain/destinations.js';
import type { Logger } from './logger.js';
import { hostAddresses } from './resolver.js';

export type SendResult = { status: number } | { error: string };

export interface Sender {
  send(url: string, headers: Record<string, string>, body: string, timeoutMs: number): Promise<SendResult>;
}

export interface WebhookSender extends Sender {
  /** Closes the idle connections kept for reuse. */
  close(): void;
}

/** Raw body bytes read at most, and for at most how long, before the socket is destroyed. */
const BODY_BYTES = 4096;
const BODY_MS = 1000;
/** An idle kept-alive connection is closed after this long. */
const IDLE_MS = 30_000;

type Code = (typeof SENDER_CODES)[keyof typeof SENDER_CODES];

function failure(code: Code, message: string): NodeJS.ErrnoException {
  return Object.assign(new Error(message), { code });
}

/** A `lookup` for net.connect that answers only addresses the rule allows. */
function checkedLookup(resolver: Resolver, allowPrivate: boolean): LookupFunction {
  return (hostname: string, options: LookupOptions, callback) => {
    hostAddresses(resolver, hostname).then(
      (addresses) => {
        const refused = addressVerdict(addresses, allowPrivate);
        if (refused === 'not_public') {
          return callback(
            failure(SENDER_CODES.notPublic, `${hostname} resolves to ${addresses.join(', ')}: not public`),
            '',
          );
        }
        const family = options.family === 4 || options.family === 6 ? options.family : 0;
        const usable: LookupAddress[] = addresses
          .map((address) => ({ address, family: isIP(address) }))
          .filter((a) => family === 0 || a.family === family);
        const [first] = usable;
        if (!first) {
          return callback(failure(SENDER_CODES.noAddress, `${hostname} has no address`), '');
        }
        if (options.all) callback(null, usable);
        else callback(null, first.address, first.family);
      },
      (error: NodeJS.ErrnoException) => callback(error, ''),
    );
  };
}

/** Reads at most BODY_BYTES of the raw body within BODY_MS, then lets go of the socket. */
function letGo(res: IncomingMessage): void {
  res.on('error', () => undefined);
  const declared = Number(res.headers['content-length'] ?? Number.NaN);
  if (declared > BODY_BYTES) {
    res.destroy();
    return;
  }
  let read = 0;
  const cut = setTimeout(() => res.destroy(), BODY_MS);
  res.on('data', (chunk: Buffer) => {
    read += chunk.length;
    if (read > BODY_BYTES) res.destroy();
  });
  res.on('close', () => clearTimeout(cut));
}

export function webhookSender(options: {
  allowPrivate: boolean;
  resolver: Resolver;
  log?: Logger;
}): WebhookSender {
  const { allowPrivate, resolver, log } = options;
  const lookup = checkedLookup(resolver, allowPrivate);
  const agents = {
    http: new HttpAgent({ keepAlive: true, timeout: IDLE_MS }),
    https: new HttpsAgent({ keepAlive: true, timeout: IDLE_MS }),
  };

  const failed = (url: URL, error: NodeJS.ErrnoException): SendResult => {
    log?.info('webhook attempt failed', { host: url.host, code: error.code ?? null, detail: error.message });
    return { error: deliveryErrorText(error.code) };
  };

  return {
    send(url, headers, body, timeoutMs) {
      const target = URL.canParse(url) ? new URL(url) : undefined;
      if (target?.protocol !== 'https:' && target?.protocol !== 'http:') {
        return Promise.resolve({ error: deliveryErrorText(undefined) });
      }
      const literal = target.hostname.replace(/^\[|\]$/g, '');
      if (!allowPrivate && isIP(literal) && !isPublicAddress(literal)) {
        return Promise.resolve(failed(target, failure(SENDER_CODES.notPublic, `${literal} is not public`)));
      }
      const secure = target.protocol === 'https:';
      return new Promise((resolve) => {
        let settled = false;
        const settle = (result: SendResult) => {
          if (settled) return;
          settled = true;
          clearTimeout(budget);
          resolve(result);
        };
        const req = (secure ? httpsRequest : httpRequest)(
          target,
          {
            method: 'POST',
            agent: secure ? agents.https : agents.http,
            lookup,
            headers: {
              'User-Agent': 'waitlistkit-webhooks',
              ...headers,
              'Content-Length': Buffer.byteLength(body),
            },
          },
          (res) => {
            settle({ status: res.statusCode ?? 0 });
            letGo(res);
          },
        );
        const budget = setTimeout(
          () => req.destroy(failure(SENDER_CODES.timedOut, `no answer within ${timeoutMs} ms`)),
          timeoutMs,
        );
        // Once the status is in, an error (the body's socket let go of) changes nothing.
        req.on('error', (error: NodeJS.ErrnoException) => {
          if (!settled) settle(failed(target, error));
        });
        req.end(body);
      });
    },
    close() {
      agents.http.destroy();
      agents.https.destroy();
    },
  };
}
