// @vitest-environment happy-dom
/**
 * The waitlist's questions in the form (docs/subscribers.md#fields) and where a sign-up came from
 * (docs/subscribers.md#attribution): rendering, the check before sending, the service's 400 at the
 * field, a description that fails, and the page's source on and off. Chromium and axe:
 * test/browser/fields.browser.test.ts.
 */
import type { FieldDefinition } from '@waitlistkit/protocol';
import { HttpResponse, http } from 'msw';
import { afterEach, beforeEach, describe, expect, it, type MockInstance, vi } from 'vitest';
import { InvalidEmailError, InvalidRequestError } from '../src/core/errors.js';
import { fetchFormDescription } from '../src/core/form-description.js';
import { subscribe } from '../src/core/subscribe.js';
import { asFormFields } from '../src/core/wire.js';
import { DEFAULT_TAG, defineWaitlistElement } from '../src/ui/element.js';
import { en } from '../src/ui/locale.js';
import { mount, type WaitlistHandle } from '../src/ui/mount.js';
import type { MountOptions } from '../src/ui/options.js';
import { answerText, fieldOf } from '../src/ui/phase.js';
import { pageSource } from '../src/ui/source.js';
import {
  BASE_URL,
  ENDPOINT,
  FORM,
  fakeService,
  formDescription,
  type ServiceOptions,
  WAITLIST_ID,
} from './support/fake-service.js';
import { pageService } from './support/page-service.js';

const { server } = pageService();

/** A text, an optional select, a required select and a consent box, in that order. */
const FIELDS: FieldDefinition[] = [
  { key: 'company', label: 'Company', type: 'text', required: true },
  { key: 'role', label: 'Role', type: 'select', required: false, options: ['Engineer', 'Founder'] },
  { key: 'size', label: 'Team size', type: 'select', required: true, options: ['1-10', '11+'] },
  { key: 'consent', label: 'I agree to be emailed', type: 'checkbox', required: true },
];

let host: HTMLElement;
let handle: WaitlistHandle | undefined;
let warnings: MockInstance<typeof console.warn>;
beforeEach(() => {
  window.happyDOM.setURL(
    'https://site.example/launch?utm_source=news&utm_campaign=spring&email=ada%40x.io#top',
  );
  Object.defineProperty(document, 'referrer', {
    value: 'https://news.example/item?id=7&token=secret',
    configurable: true,
  });
  host = document.createElement('div');
  document.body.append(host);
  vi.spyOn(console, 'error').mockImplementation(() => {});
  warnings = vi.spyOn(console, 'warn').mockImplementation(() => {});
});
afterEach(() => {
  handle?.destroy();
  handle = undefined;
  host.remove();
  server.resetHandlers();
  vi.restoreAllMocks();
});

const $ = <T extends Element = HTMLElement>(selector: string) =>
  (host.shadowRoot as ShadowRoot).querySelector<T>(selector);
const $$ = (selector: string) => [...(host.shadowRoot as ShadowRoot).querySelectorAll<HTMLElement>(selector)];
const control = <T extends HTMLElement = HTMLInputElement>(key: string) => $<T>(`#k-${key}`) as T;
const errorOf = (key: string) => $(`#m-${key}`)?.textContent;
const status = () => $('[part=status]')?.textContent;
const focused = () => (host.shadowRoot as ShadowRoot).activeElement;

function start(
  /** `null`: the test answers the description itself. */
  fields: FieldDefinition[] | null = FIELDS,
  service: ServiceOptions = {},
  options: Partial<MountOptions> = {},
) {
  const fake = fakeService(service);
  server.use(fake.handler, fake.gates);
  if (fields) server.use(formDescription(fields));
  handle = mount(host, { waitlistId: WAITLIST_ID, baseUrl: BASE_URL, ...options });
  return fake;
}
const described = () => vi.waitFor(() => expect($('#k-company')).not.toBeNull());
function answer(values: { email?: string; company?: string; role?: string; consent?: boolean }) {
  ($<HTMLInputElement>('#e') as HTMLInputElement).value = values.email ?? 'ada@example.com';
  if (values.company !== undefined) control('company').value = values.company;
  if (values.role !== undefined) control<HTMLSelectElement>('role').value = values.role;
  if (values.consent !== undefined) control('consent').checked = values.consent;
}
const submit = () => ($<HTMLFormElement>('form') as HTMLFormElement).requestSubmit();

describe('the form asks the waitlist’s questions', () => {
  it('shows the address at once and the questions, in order, once their description arrives', async () => {
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    server.use(http.get(FORM, async () => held.then(() => HttpResponse.json({ fields: FIELDS }))));
    start(null);
    // Rendered without waiting: the address field and its button.
    expect($('#e')).not.toBeNull();
    expect($('.row button[type=submit]')).not.toBeNull();
    release();
    await described();
    expect($$('input,select').map((c) => c.id)).toEqual(['e', 'k-company', 'k-role', 'k-size', 'k-consent']);
    // The submit button now follows the questions (keyboard order: address, questions, submit).
    expect($('form > button[type=submit]')).not.toBeNull();
    expect($('.row button')).toBeNull();
  });

  it('renders each type as its control, labelled, required where it is', async () => {
    start();
    await described();
    const company = control('company');
    expect(company).toMatchObject({ type: 'text', required: true, maxLength: 500 });
    expect($<HTMLLabelElement>('label[for=k-company]')?.textContent).toBe('Company');
    const role = control<HTMLSelectElement>('role');
    expect(role.tagName).toBe('SELECT');
    expect(role.required).toBe(false);
    // Not required: a first, empty choice, chosen.
    expect([...role.options].map((o) => o.value)).toEqual(['', 'Engineer', 'Founder']);
    expect(role.value).toBe('');
    expect($<HTMLLabelElement>('label[for=k-role]')?.textContent).toBe('Role');
    // Required: the options only.
    expect([...control<HTMLSelectElement>('size').options].map((o) => o.value)).toEqual(['1-10', '11+']);
    const consent = control('consent');
    expect(consent).toMatchObject({ type: 'checkbox', required: true, checked: false });
    // A consent box is labelled by the label around it.
    expect(consent.closest('label')?.textContent).toBe('I agree to be emailed');
    for (const key of ['company', 'role', 'size', 'consent']) {
      expect(control(key).getAttribute('aria-invalid')).toBeNull();
      expect($(`#m-${key}`)?.getAttribute('part')).toBe('error');
    }
  });

  it('sends the answers as `fields`, checked and trimmed, an optional select left empty left out', async () => {
    const fake = start();
    await described();
    answer({ company: '  Acme  ', consent: true });
    submit();
    await vi.waitFor(() => expect(status()).toBe(en.success));
    expect(fake.requests.map((r) => r.body.fields)).toEqual([
      { company: 'Acme', size: '1-10', consent: true },
    ]);
  });

  it('waits for the description when the visitor is faster, then checks against it', async () => {
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    server.use(http.get(FORM, async () => held.then(() => HttpResponse.json({ fields: FIELDS }))));
    const fake = start(null);
    answer({});
    submit();
    await vi.waitFor(() => expect(status()).toBe(en.checking));
    release();
    // The questions arrived unanswered: nothing is sent, the first is pointed at.
    await vi.waitFor(() => expect(errorOf('company')).toBe(en.required));
    expect(fake.requests).toHaveLength(0);
  });

  it('checks before sending: the first problem at its field, tied to it, focus moved there, nothing sent', async () => {
    const events: Record<string, unknown>[] = [];
    host.addEventListener('waitlist:error', (e) => events.push((e as CustomEvent).detail));
    const fake = start();
    await described();
    answer({ company: 'Acme', role: 'Engineer' });
    submit();
    await vi.waitFor(() => expect(errorOf('consent')).toBe(en.required));
    const consent = control('consent');
    expect(consent.getAttribute('aria-invalid')).toBe('true');
    expect(consent.getAttribute('aria-describedby')).toBe('m-consent');
    expect(focused()).toBe(consent);
    // Only there: not at the address, not in the live region, not at the other fields.
    expect($('#f')?.textContent).toBe('');
    expect($('#e')?.getAttribute('aria-invalid')).toBeNull();
    expect(status()).toBe('');
    expect(errorOf('company')).toBe('');
    expect(fake.requests).toHaveLength(0);
    expect(events).toMatchObject([
      { code: 'invalid_request', status: 400, message: '`fields.consent` must be ticked.' },
    ]);
    // Ticked, the next try goes through and the error goes.
    answer({ company: 'Acme', role: 'Engineer', consent: true });
    submit();
    await vi.waitFor(() => expect(status()).toBe(en.success));
    expect(fake.requests).toHaveLength(1);
  });

  it('checks the address first, at its own field', async () => {
    const fake = start();
    await described();
    answer({ email: 'not an address' });
    submit();
    await vi.waitFor(() => expect($('#f')?.textContent).toBe(en.invalidEmail));
    expect(focused()).toBe($('#e'));
    expect(errorOf('company')).toBe('');
    expect(fake.requests).toHaveLength(0);
  });

  it('shows the service’s 400 at the field its message names', async () => {
    start(FIELDS, {
      script: [
        {
          status: 400,
          body: {
            error: { code: 'invalid_request', message: '`fields.role` must be one of the options offered.' },
          },
        },
      ],
    });
    await described();
    answer({ company: 'Acme', role: 'Founder', consent: true });
    submit();
    await vi.waitFor(() => expect(errorOf('role')).toBe(en.invalidAnswer));
    expect(control('role').getAttribute('aria-invalid')).toBe('true');
    expect(control('role').getAttribute('aria-describedby')).toBe('m-role');
    expect(focused()).toBe(control('role'));
    expect($('#f')?.textContent).toBe('');
    expect(status()).toBe('');
  });

  it('shows a 400 naming a field it does not show at the address, as any other 400', async () => {
    start(FIELDS, {
      script: [
        {
          status: 400,
          body: {
            error: { code: 'invalid_request', message: '`fields.vip` is not a field of this waitlist.' },
          },
        },
      ],
    });
    await described();
    answer({ company: 'Acme', consent: true });
    submit();
    await vi.waitFor(() => expect($('#f')?.textContent).toBe(en.invalidRequest));
    expect(focused()).toBe($('#e'));
  });

  it('renders hostile labels and options as text', async () => {
    start([
      { key: 'a', label: '<img src=x onerror=alert(1)>', type: 'text', required: false },
      {
        key: 'b',
        label: 'B',
        type: 'select',
        required: true,
        options: ['</option><script>alert(1)</script>'],
      },
    ]);
    await vi.waitFor(() => expect($('#k-b')).not.toBeNull());
    expect($('label[for=k-a]')?.textContent).toBe('<img src=x onerror=alert(1)>');
    expect(control<HTMLSelectElement>('b').value).toBe('</option><script>alert(1)</script>');
    expect($('img')).toBeNull();
    expect($('script')).toBeNull();
  });

  it.each([
    ['a 404', () => HttpResponse.json({ error: { code: 'not_found', message: 'x' } }, { status: 404 })],
    ['a network failure', () => HttpResponse.error()],
    ['an HTML page', () => HttpResponse.html('<!doctype html><p>Welcome</p>')],
    ['garbage JSON', () => HttpResponse.json({ fields: 'company' })],
    ['fields that cannot be rendered', () => HttpResponse.json({ fields: [{ key: '"]<x>', type: 'text' }] })],
    [
      'a select without options',
      () => HttpResponse.json({ fields: [{ key: 'a', type: 'select', label: 'A' }] }),
    ],
  ])('after %s, asks the address only, still signs up, and tells the developer', async (_, reply) => {
    server.use(http.get(FORM, reply));
    const fake = start(null);
    await vi.waitFor(() => expect(warnings).toHaveBeenCalled());
    expect(String(warnings.mock.calls[0]?.[0])).toMatch(
      /^Waitlist widget: the form's questions could not be loaded/,
    );
    expect($$('input,select').map((c) => c.id)).toEqual(['e']);
    answer({});
    submit();
    await vi.waitFor(() => expect(status()).toBe(en.success));
    expect(fake.requests[0]?.body.fields).toBeUndefined();
  });

  it('asks its description once, from the page, without credentials or a preflight', async () => {
    const seen: Request[] = [];
    server.use(
      http.get(FORM, ({ request }) => {
        seen.push(request);
        return HttpResponse.json({ fields: [] });
      }),
    );
    start(null);
    await vi.waitFor(() => expect(seen).toHaveLength(1));
    expect(seen[0]?.url).toBe(`${BASE_URL}/v1/public/waitlists/${WAITLIST_ID}/form`);
    expect(seen[0]?.headers.get('content-type')).toBeNull();
    expect(seen[0]?.credentials).toBe('omit');
  });

  it('reset() clears the answers too', async () => {
    start();
    await described();
    answer({ company: 'Acme', role: 'Founder', consent: true });
    handle?.reset();
    await vi.waitFor(() => expect(control('company').value).toBe(''));
    expect(control<HTMLSelectElement>('role').value).toBe('');
    expect(control('consent').checked).toBe(false);
  });
});

describe('where the sign-up came from', () => {
  it('sends the page’s UTM parameters, its referrer and its own address, without their queries', async () => {
    const fake = start([]);
    answer({});
    submit();
    await vi.waitFor(() => expect(status()).toBe(en.success));
    expect(fake.requests[0]?.body.source).toEqual({
      utm_source: 'news',
      utm_campaign: 'spring',
      referrer: 'https://news.example/item',
      landing: 'https://site.example/launch',
    });
  });

  it('sends none with the option attribution: false', async () => {
    const fake = start([], {}, { attribution: false });
    answer({});
    submit();
    await vi.waitFor(() => expect(status()).toBe(en.success));
    expect(fake.requests[0]?.body).not.toHaveProperty('source');
  });

  it.each([
    ['off', false],
    ['on', true],
    ['no', true],
  ])('with the attribute attribution="%s", sends a source: %s', async (value, sent) => {
    const fake = fakeService();
    server.use(fake.handler);
    defineWaitlistElement();
    const element = document.createElement(DEFAULT_TAG);
    element.setAttribute('waitlist-id', WAITLIST_ID);
    element.setAttribute('base-url', BASE_URL);
    element.setAttribute('attribution', value);
    host.append(element);
    const inside = <T extends Element>(selector: string) => element.shadowRoot?.querySelector<T>(selector);
    await vi.waitFor(() => expect(inside('form')).toBeTruthy());
    (inside<HTMLInputElement>('#e') as HTMLInputElement).value = 'ada@example.com';
    (inside<HTMLFormElement>('form') as HTMLFormElement).requestSubmit();
    await vi.waitFor(() => expect(fake.requests).toHaveLength(1));
    expect(fake.requests[0]?.body.source !== undefined).toBe(sent);
  });
});

describe('pageSource', () => {
  it('keeps the five utm_ parameters, and the pages as origin + path', () => {
    expect(
      pageSource(
        'https://site.example/a/b?utm_source=x&utm_medium=y&utm_campaign=z&utm_term=t&utm_content=c&gclid=1&ref=K7M2QX#f',
        'http://user:pw@news.example:8080/p?q=1#h',
      ),
    ).toEqual({
      utm_source: 'x',
      utm_medium: 'y',
      utm_campaign: 'z',
      utm_term: 't',
      utm_content: 'c',
      referrer: 'http://news.example:8080/p',
      landing: 'https://site.example/a/b',
    });
  });

  it('leaves out what is empty, not a web page, or longer than 200 characters, never cutting it', () => {
    const long = 'x'.repeat(201);
    expect(
      pageSource(`https://site.example/?utm_source=&utm_medium=${long}&utm_term=${'y'.repeat(200)}`, ''),
    ).toEqual({
      utm_term: 'y'.repeat(200),
      landing: 'https://site.example/',
    });
    expect(pageSource(`https://site.example/${long}`, 'android-app://com.example')).toEqual({});
    expect(pageSource('https://site.example/?utm_source=%3Cscript%3E', 'javascript:alert(1)')).toEqual({
      utm_source: '<script>',
      landing: 'https://site.example/',
    });
  });

  it('trims a long address to its page before measuring it', () => {
    const page = 'https://site.example/launch';
    expect(pageSource(`${page}?token=${'t'.repeat(500)}`, `${page}?x=${'t'.repeat(500)}`)).toEqual({
      referrer: page,
      landing: page,
    });
  });
});

describe('where a refusal is shown, and in which words', () => {
  const refusal = (message: string) => new InvalidRequestError(message, 400, 'invalid_request');

  it('at the field its message names, when the form shows it; else at the address', () => {
    expect(fieldOf(refusal('`fields.role` must be one of the options offered.'), FIELDS)).toBe('role');
    expect(fieldOf(refusal('`fields.vip` is not a field of this waitlist.'), FIELDS)).toBe('');
    expect(fieldOf(refusal('`fields.role` is required.'), [])).toBe('');
    expect(
      fieldOf(new InvalidEmailError('The email address is not valid.', 400, 'invalid_email'), FIELDS),
    ).toBe('');
  });

  it('an answer missing, or a box not ticked, is "required"; anything else asks to check the answer', () => {
    expect(answerText(refusal('`fields.company` is required.'))).toBe('required');
    expect(answerText(refusal('`fields.consent` must be ticked.'))).toBe('required');
    expect(answerText(refusal('`fields.company` must be at most 500 characters long.'))).toBe(
      'invalidAnswer',
    );
    expect(answerText(refusal('`fields.role` must be one of the options offered.'))).toBe('invalidAnswer');
  });
});

describe('asFormFields', () => {
  it('takes a description as docs/endpoints.md#the-form gives it', () => {
    expect(asFormFields({ fields: FIELDS })).toEqual(FIELDS);
    expect(asFormFields({ fields: [] })).toEqual([]);
  });

  it.each([
    ['no body', undefined],
    ['an array', [FIELDS]],
    ['fields not an array', { fields: {} }],
    ['a field that is not an object', { fields: [null] }],
    ['a key that is not one', { fields: [{ key: 'Company', label: 'C', type: 'text' }] }],
    ['a key that would be a selector', { fields: [{ key: 'a],b', label: 'C', type: 'text' }] }],
    ['a select without a list', { fields: [{ key: 'a', label: 'A', type: 'select', options: 'x' }] }],
  ])('refuses %s', (_, body) => {
    expect(asFormFields(body)).toBeUndefined();
  });
});

describe('fetchFormDescription', () => {
  const options = { baseUrl: BASE_URL, waitlistId: WAITLIST_ID, origin: 'https://site.example' };

  it('resolves to the fields in order, with the Origin it is given (outside browsers) and no content type', async () => {
    const sent: RequestInit[] = [];
    const recording = (async (url: string, init: RequestInit) => {
      sent.push(init);
      return fetch(url, init);
    }) as typeof fetch;
    server.use(formDescription(FIELDS));
    await expect(fetchFormDescription({ ...options, fetch: recording })).resolves.toEqual(FIELDS);
    expect(sent).toMatchObject([{ headers: { origin: 'https://site.example' }, credentials: 'omit' }]);
    expect(sent[0]?.method).toBeUndefined();
  });

  it('rejects saying what came back when it is not a form description', async () => {
    await expect(fetchFormDescription({ ...options, waitlistId: 'wl_other' })).rejects.toThrow(
      `GET ${BASE_URL}/v1/public/waitlists/wl_other/form answered 404, not the form's description.`,
    );
    server.use(http.get(FORM, () => HttpResponse.text('<html>', { status: 200 })));
    await expect(fetchFormDescription(options)).rejects.toThrow('answered 200');
    await expect(fetchFormDescription({ ...options, baseUrl: 'javascript:alert(1)' })).rejects.toThrow(
      TypeError,
    );
  });
});

describe('subscribe() with fields and a source', () => {
  it('sends both as given, beside the address', async () => {
    const fake = fakeService();
    server.use(fake.handler);
    await subscribe({
      baseUrl: BASE_URL,
      waitlistId: WAITLIST_ID,
      email: 'ada@example.com',
      fields: { company: 'Acme', consent: true },
      source: { utm_source: 'news', landing: 'https://site.example/launch' },
      origin: 'https://site.example',
    });
    expect(fake.requests[0]?.body).toEqual({
      email: 'ada@example.com',
      fields: { company: 'Acme', consent: true },
      source: { utm_source: 'news', landing: 'https://site.example/launch' },
    });
  });

  it('answers a 400 naming a field with an InvalidRequestError whose message names it', async () => {
    server.use(
      http.post(ENDPOINT, () =>
        HttpResponse.json(
          { error: { code: 'invalid_request', message: '`fields.company` is required.' } },
          { status: 400 },
        ),
      ),
    );
    await expect(
      subscribe({ baseUrl: BASE_URL, waitlistId: WAITLIST_ID, email: 'ada@example.com', fields: {} }),
    ).rejects.toMatchObject({
      status: 400,
      code: 'invalid_request',
      message: '`fields.company` is required.',
    });
  });
});
