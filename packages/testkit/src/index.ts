export * from './pnpm.js';
