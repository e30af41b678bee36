/**
 * The waitlist's questions: `GET …/form` (docs/endpoints.md#the-form). The form asks it while it
 * first renders, so the address field never waits for it.
 */
import type { FieldDefinition } from '@waitlistkit/protocol';
import { endpoint, type PrepareOptions } from './subscribe.js';
import { asFormFields } from './wire.js';

export type FormDescriptionOptions = Pick<
  PrepareOptions,
  'baseUrl' | 'waitlistId' | 'signal' | 'fetch' | 'origin'
>;

/**
 * The waitlist's fields, in order (`[]` when it asks nothing). Rejects with an Error saying what
 * went wrong (not found, not a form description, unreachable): a form then asks the address only.
 */
export async function fetchFormDescription(options: FormDescriptionOptions): Promise<FieldDefinition[]> {
  const { url } = endpoint(options, 'form');
  // No content-type: a GET without custom headers needs no CORS preflight.
  const response = await (options.fetch ?? fetch)(url, {
    headers: options.origin ? { origin: options.origin } : {},
    credentials: 'omit',
    signal: options.signal,
  });
  const fields = response.ok ? asFormFields(await response.json().catch(() => 0)) : undefined;
  if (!fields) throw new Error(`GET ${url} answered ${response.status}, not the form's description.`);
  return fields;
}
