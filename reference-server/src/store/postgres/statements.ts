/** This adapter's statement modules, one per aggregate: what ../repositories.ts binds to a connection. */
export * from './activity.js';
export * from './confirmations.js';
export * from './idempotency.js';
export * from './keys.js';
export * from './lifecycle.js';
export * from './line.js';
export * from './meta.js';
export * from './operators.js';
export * from './outbox.js';
export * from './overview.js';
export * from './reveals.js';
export * from './sessions.js';
export * from './subscribers.js';
export * from './tenants.js';
export * from './tokens.js';
export * from './waitlists.js';
export * from './webhooks.js';
