export * from './browser.js';
export * from './dns.js';
export * from './pnpm.js';
export * from './postgres.js';
export * from './server.js';
export * from './smtp.js';
