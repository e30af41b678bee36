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
import { HttpResponse, http } from 'msw';
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

it('fetches its language’s texts from beside itself, wherever it is served from, and sends lang', async () => {
  window.happyDOM.setURL('https://site.example/');
  const service = fakeService();
  const cdn = 'https://cdn.example/npm/@waitlistkit/widget@0.1.0/dist';
  const asked: string[] = [];
  const de = JSON.parse(
    readFileSync(resolve(dirname(fileURLToPath(import.meta.url)), '../dist/locales/de.json'), 'utf8'),
  );
  server.use(
    service.handler,
    http.get(`${cdn}/locales/:file`, ({ request }) => {
      asked.push(request.url);
      return HttpResponse.json(de);
    }),
  );
  const built = resolve(dirname(fileURLToPath(import.meta.url)), '../dist/waitlist.js');
  const script = document.createElement('script');
  script.dataset.waitlistId = WAITLIST_ID;
  script.dataset.baseUrl = BASE_URL;
  script.dataset.lang = 'de-CH';
  script.setAttribute('data-text-button', 'Eintragen');
  // Where the page loaded it from (set on the element only: happy-dom would load a real src).
  Object.defineProperty(script, 'src', { value: `${cdn}/waitlist.js?v=1` });
  document.body.append(script);
  Object.defineProperty(document, 'currentScript', { value: script, configurable: true });
  try {
    runInThisContext(readFileSync(built, 'utf8'));
  } finally {
    Object.defineProperty(document, 'currentScript', { value: null, configurable: true });
  }
  const element = script.nextElementSibling as HTMLElement;
  const root = () => element.shadowRoot as ShadowRoot;
  await vi.waitFor(() => expect(root().querySelector('label')?.textContent).toBe('E-Mail-Adresse'));
  expect(asked).toEqual([`${cdn}/locales/de.json`]);
  expect(root().querySelector('button')?.textContent).toBe('Eintragen');
  (root().querySelector('input') as HTMLInputElement).value = 'ada@example.com';
  (root().querySelector('form') as HTMLFormElement).requestSubmit();
  await vi.waitFor(() =>
    expect(root().querySelector('[part=status]')?.textContent).toBe('Sie stehen auf der Liste!'),
  );
  expect((service.requests.at(-1)?.body as { lang?: string } | undefined)?.lang).toBe('de');
});
