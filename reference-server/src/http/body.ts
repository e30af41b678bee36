/**
 * Reading a JSON body after the cheap checks have passed (docs/protocol.md#order-of-checks: 413/415/400 come after
 * 404 and 429). Limits are enforced while reading, so a huge body costs at most 16 KiB.
 */
import type { IncomingMessage } from 'node:http';
import { BODY_MAX_BYTES, ErrorCode } from '@waitlistkit/protocol';
import { type BodyRead, type Refusal, refusal } from '../app/refusal.js';
import { sha256Hex } from '../domain/crypto.js';

/**
 * What was read, with the body's digest for the API's idempotency keys (app/api-idempotency.ts),
 * hashed only when asked: the public endpoints never ask.
 */
function read(raw: Buffer, result: { ok: true; value: unknown } | { ok: false; refusal: Refusal }): BodyRead {
  let digest: string | undefined;
  return {
    ...result,
    get digest() {
      digest ??= sha256Hex(raw);
      return digest;
    },
  };
}

const fail = (raw: Buffer, code: ErrorCode, message: string): BodyRead =>
  read(raw, { ok: false, refusal: refusal(code, message) });

// Too large to keep: every such body is the same request as far as idempotency can tell.
const tooLarge = (): BodyRead => ({
  digest: 'too_large',
  ok: false,
  refusal: refusal(ErrorCode.payloadTooLarge, `The body is larger than ${BODY_MAX_BYTES} bytes.`),
});

/**
 * Which media types a body of JSON may come as: `application/json`, and for the views of the form
 * `text/plain` too, the one type `navigator.sendBeacon` sends across origins without a CORS
 * preflight (docs/endpoints.md#views).
 */
export type JsonMediaTypes = 'json' | 'json_or_text';

function isJsonMediaType(header: string | undefined, accepted: JsonMediaTypes): boolean {
  if (!header) return false;
  const [type, ...params] = header.split(';').map((part) => part.trim().toLowerCase());
  if (type !== 'application/json' && !(accepted === 'json_or_text' && type === 'text/plain')) return false;
  return params.every((p) => !p.startsWith('charset=') || p === 'charset=utf-8' || p === 'charset="utf-8"');
}

function readRaw(req: IncomingMessage, limit: number): Promise<Buffer | 'too_large'> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let done = false;
    const finish = (value: Buffer | 'too_large') => {
      if (done) return;
      done = true;
      req.off('data', onData);
      resolve(value);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        // Stop buffering; the rest of the upload is drained and discarded.
        req.resume();
        finish('too_large');
      } else chunks.push(chunk);
    };
    req.on('data', onData);
    req.once('end', () => finish(Buffer.concat(chunks)));
    req.once('error', (error) => (done ? undefined : reject(error)));
    req.once('aborted', () => (done ? undefined : reject(new Error('request aborted'))));
  });
}

const decoder = new TextDecoder('utf-8', { fatal: true });

/**
 * The request's body as a use case reads it: on demand, when its checks get there, and the
 * same answer every time it asks (a request's stream can be read only once).
 */
export function bodyReader(req: IncomingMessage, accepted: JsonMediaTypes = 'json'): () => Promise<BodyRead> {
  let body: Promise<BodyRead> | undefined;
  return () => {
    body ??= readJsonBody(req, accepted);
    return body;
  };
}

async function readJsonBody(
  req: IncomingMessage,
  accepted: JsonMediaTypes,
  limit = BODY_MAX_BYTES,
): Promise<BodyRead> {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > limit) return tooLarge();
  const raw = await readRaw(req, limit);
  if (raw === 'too_large') return tooLarge();
  if (!isJsonMediaType(req.headers['content-type'], accepted)) {
    return fail(
      raw,
      ErrorCode.unsupportedMediaType,
      accepted === 'json'
        ? 'Send the body as JSON with Content-Type: application/json.'
        : 'Send the body as JSON with Content-Type: application/json or text/plain.',
    );
  }
  let text: string;
  try {
    text = decoder.decode(raw);
  } catch {
    return fail(raw, ErrorCode.invalidRequest, 'The body is not valid UTF-8.');
  }
  if (text.trim() === '') return fail(raw, ErrorCode.invalidRequest, 'The body is empty.');
  try {
    return read(raw, { ok: true, value: JSON.parse(text) });
  } catch {
    return fail(raw, ErrorCode.invalidRequest, 'The body is not valid JSON.');
  }
}
