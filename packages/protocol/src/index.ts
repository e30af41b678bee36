export * from './api-key.js';
export { BASE62_ALPHABET, randomString } from './base62.js';
export * from './constants.js';
export * from './email.js';
export * from './parse.js';
export * from './pow.js';
export * from './referral-code.js';
export * from './schemas.js';
export * from './sha256.js';
