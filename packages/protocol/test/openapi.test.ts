import { readFileSync } from 'node:fs';
import { validate } from '@readme/openapi-parser';
import { describe, expect, it } from 'vitest';
import { WEBHOOK_EVENT_TYPES } from '../src/index.js';
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

  it('describes every operation of docs/endpoints.md#endpoints', () => {
    const ops = Object.entries(checkedIn.paths).flatMap(([path, item]) =>
      Object.keys(item as object)
        .filter((k) => k !== 'parameters')
        .map((method) => `${method.toUpperCase()} ${path}`),
    );
    expect(ops.sort()).toEqual([
      'DELETE /v1/api/waitlists/{waitlist_id}/subscribers/{subscriber_id}',
      // Part three's insights (docs/insights.md#stats, docs/insights.md#views).
      'GET /v1/api/waitlists/{waitlist_id}/stats',
      'GET /v1/api/waitlists/{waitlist_id}/subscribers',
      'GET /v1/api/waitlists/{waitlist_id}/subscribers/{subscriber_id}',
      // The form (docs/endpoints.md#the-form).
      'GET /v1/public/waitlists/{waitlist_id}/form',
      'OPTIONS /v1/public/waitlists/{waitlist_id}/gates',
      'OPTIONS /v1/public/waitlists/{waitlist_id}/subscribers',
      'OPTIONS /v1/public/waitlists/{waitlist_id}/views',
      'POST /v1/api/waitlists/{waitlist_id}/admissions',
      'POST /v1/api/waitlists/{waitlist_id}/subscribers',
      'POST /v1/public/waitlists/{waitlist_id}/gates',
      'POST /v1/public/waitlists/{waitlist_id}/subscribers',
      'POST /v1/public/waitlists/{waitlist_id}/views',
    ]);
  });

  it('gives every response of both areas a Request-Id, and every API POST an Idempotency-Key', () => {
    for (const [path, item] of Object.entries(checkedIn.paths)) {
      for (const [method, operation] of Object.entries(
        item as Record<string, { responses?: object; parameters?: { name: string }[] }>,
      )) {
        if (method === 'parameters') continue;
        for (const [status, response] of Object.entries(operation.responses ?? {})) {
          expect({
            at: `${method} ${path} ${status}`,
            headers: Object.keys((response as { headers?: object }).headers ?? {}),
          }).toMatchObject({ headers: expect.arrayContaining(['Request-Id']) });
        }
        if (method === 'post' && path.startsWith('/v1/api/')) {
          expect(operation.parameters?.map((p) => p.name)).toContain('Idempotency-Key');
        }
      }
    }
  });

  it('describes the POST of every webhook event, with the Standard Webhooks headers', () => {
    interface Operation {
      parameters: { name: string; required: boolean }[];
      requestBody: { content: Record<string, { schema: { $ref: string } }> };
      responses: object;
    }
    const webhooks = checkedIn.webhooks as Record<string, { post: Operation }>;
    expect(Object.keys(webhooks)).toEqual(WEBHOOK_EVENT_TYPES);
    for (const [type, { post }] of Object.entries(webhooks)) {
      const id = post.requestBody.content['application/json']?.schema.$ref.split('/').pop() ?? '';
      expect(checkedIn.components.schemas[id].properties.type.const).toBe(type);
      expect(post.parameters.map((p) => [p.name, p.required])).toEqual([
        ['webhook-id', true],
        ['webhook-timestamp', true],
        ['webhook-signature', true],
      ]);
      expect(Object.keys(post.responses)).toEqual(['2XX', 'default']);
    }
    expect(checkedIn.components.schemas.WebhookEvent.oneOf).toHaveLength(WEBHOOK_EVENT_TYPES.length);
  });
});
