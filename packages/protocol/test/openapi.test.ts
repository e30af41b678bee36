import { readFileSync } from 'node:fs';
import { validate } from '@readme/openapi-parser';
import { describe, expect, it } from 'vitest';
import { buildOpenApiDocument } from '../src/openapi.js';

const checkedIn = JSON.parse(readFileSync(new URL('../openapi.json', import.meta.url), 'utf8'));

describe('openapi.json', () => {
  it('is what the schemas generate (run `pnpm --filter @waitlistkit/protocol openapi` after changing them)', () => {
    expect(checkedIn).toEqual(buildOpenApiDocument());
  });

  it('is a valid OpenAPI 3.1 document', async () => {
    const result = await validate(structuredClone(checkedIn));
    expect(result.valid ? [] : result.errors).toEqual([]);
  });

  it('describes every operation of the spec', () => {
    const ops = Object.entries(checkedIn.paths).flatMap(([path, item]) =>
      Object.keys(item as object)
        .filter((k) => k !== 'parameters')
        .map((method) => `${method.toUpperCase()} ${path}`),
    );
    expect(ops.sort()).toEqual([
      'GET /v1/api/waitlists/{waitlist_id}/subscribers',
      'OPTIONS /v1/public/waitlists/{waitlist_id}/subscribers',
      'POST /v1/api/waitlists/{waitlist_id}/subscribers',
      'POST /v1/public/waitlists/{waitlist_id}/subscribers',
    ]);
  });
});
