// @vitest-environment happy-dom
/**
 * The built script-tag file, run as a page would run it: the IIFE, its build constants and its
 * embedded solver, not the sources (the root test command builds first).
 */
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runInThisContext } from 'node:vm';
import { verifyPow } from '@waitlistkit/protocol';
import { expect, it, vi } from 'vitest';
import { BASE_URL, fakeService, WAITLIST_ID } from './support/fake-service.js';
import { pageService } from './support/page-service.js';

// Every form asks its description first: none, unless a test says otherwise.
const { server } = pageService();

it('renders after its script tag and signs up through Proof of Work', async () => {
  window.happyDOM.setURL('https://site.example/?ref=ABCDEF');
  const service = fakeService({ pow: { difficulty: 10 } });
  server.use(service.handler);
  const built = resolve(dirname(fileURLToPath(import.meta.url)), '../dist/waitlist.js');
  const source = readFileSync(built, 'utf8');
  const script = document.createElement('script');
  script.dataset.waitlistId = WAITLIST_ID;
  script.dataset.baseUrl = BASE_URL;
  script.dataset.button = 'Join';
  document.body.append(script);
  Object.defineProperty(document, 'currentScript', { value: script, configurable: true });
  try {
    // In the global scope, as a classic script runs.
    runInThisContext(source);
  } finally {
    Object.defineProperty(document, 'currentScript', { value: null, configurable: true });
  }
  const element = script.nextElementSibling as HTMLElement;
  const root = () => element.shadowRoot as ShadowRoot;
  await vi.waitFor(() => expect(root().querySelector('button')?.textContent).toBe('Join'));
  (root().querySelector('input') as HTMLInputElement).value = 'ada@example.com';
  (root().querySelector('form') as HTMLFormElement).requestSubmit();
  await vi.waitFor(() =>
    expect(root().querySelector('[part=status]')?.textContent).toBe("You're on the list!"),
  );
  const last = service.requests.at(-1)?.body;
  expect(last?.referral_code).toBe('ABCDEF');
  expect(verifyPow(last?.pow?.nonce as string, last?.pow?.solution as number, 10)).toBe(true);
});
