import { defineProject } from 'vitest/config';

export default defineProject({
  test: { name: 'example-custom-client', environment: 'node', testTimeout: 60_000, hookTimeout: 60_000 },
});
