/**
 * API key format, docs/protocol.md#api-keys: `wlk_live_` + 32 random base62 characters + 6 base62
 * characters of the CRC32 of everything before them. The checksum lets clients and the
 * server reject a mistyped or truncated key before any lookup, and secret scanners find
 * leaked keys by the fixed prefix.
 */
import { BASE62_ALPHABET, randomString, toBase62 } from './base62.js';
import { utf8 } from './sha256.js';

export const API_KEY_PREFIX = 'wlk_live_';
export const API_KEY_SECRET_LENGTH = 32;
export const API_KEY_CHECKSUM_LENGTH = 6;
export const API_KEY_LENGTH = API_KEY_PREFIX.length + API_KEY_SECRET_LENGTH + API_KEY_CHECKSUM_LENGTH;
/** The listed, non-secret form of a key is its first 12 characters. */
export const API_KEY_LISTED_LENGTH = 12;

const CRC_TABLE = /* @__PURE__ */ (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();

/** CRC-32 (IEEE 802.3, as zlib), unsigned. */
export function crc32(bytes: Uint8Array): number {
  let crc = 0xffffffff;
  for (const byte of bytes) crc = (CRC_TABLE[(crc ^ byte) & 0xff] as number) ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

export function apiKeyChecksum(body: string): string {
  return toBase62(crc32(utf8(body)), API_KEY_CHECKSUM_LENGTH);
}

export function generateApiKey(): string {
  const body = API_KEY_PREFIX + randomString(BASE62_ALPHABET, API_KEY_SECRET_LENGTH);
  return body + apiKeyChecksum(body);
}

export type ApiKeyProblem = 'type' | 'prefix' | 'length' | 'characters' | 'checksum';

export type ParsedApiKey =
  | { ok: true; value: string; listed: string; secret: string; checksum: string }
  | { ok: false; problem: ApiKeyProblem; message: string };

const BODY_PATTERN = /^[0-9A-Za-z]+$/;

export function parseApiKey(value: unknown): ParsedApiKey {
  if (typeof value !== 'string') {
    return { ok: false, problem: 'type', message: 'An API key is a string.' };
  }
  if (!value.startsWith(API_KEY_PREFIX)) {
    return { ok: false, problem: 'prefix', message: `An API key begins with "${API_KEY_PREFIX}".` };
  }
  if (value.length !== API_KEY_LENGTH) {
    return {
      ok: false,
      problem: 'length',
      message: `An API key is ${API_KEY_LENGTH} characters long; this one has ${value.length}.`,
    };
  }
  const rest = value.slice(API_KEY_PREFIX.length);
  if (!BODY_PATTERN.test(rest)) {
    return {
      ok: false,
      problem: 'characters',
      message: `After "${API_KEY_PREFIX}" an API key holds only letters and digits.`,
    };
  }
  const secret = rest.slice(0, API_KEY_SECRET_LENGTH);
  const checksum = rest.slice(API_KEY_SECRET_LENGTH);
  if (apiKeyChecksum(API_KEY_PREFIX + secret) !== checksum) {
    return {
      ok: false,
      problem: 'checksum',
      message: 'The API key fails its checksum: it was mistyped or truncated.',
    };
  }
  return { ok: true, value, listed: value.slice(0, API_KEY_LISTED_LENGTH), secret, checksum };
}

export function isWellFormedApiKey(value: unknown): value is string {
  return parseApiKey(value).ok;
}
