/**
 * A request's body as a check takes it: read (the door's 413, 415, 400) and parsed (400), for
 * each walk to stop in its own way on the refusal.
 */
import type { Parsed } from '@waitlistkit/protocol';
import { type BodyRead, type Refusal, refusal } from './refusal.js';

export async function parsedBody<T>(
  readBody: () => Promise<BodyRead>,
  parse: (value: unknown) => Parsed<T>,
): Promise<{ ok: true; value: T } | { ok: false; refusal: Refusal }> {
  const raw = await readBody();
  if (!raw.ok) return raw;
  const parsed = parse(raw.value);
  return parsed.ok ? parsed : { ok: false, refusal: refusal(parsed.error.code, parsed.error.message) };
}
