/** The rules of a waitlist's messages (domain/messages.ts), without a store or a mail server. */
import { describe, expect, it } from 'vitest';
import { checkMessage, renderMessage, sampleRecipient, tagValues } from '../src/domain/messages.js';

const ok = { subject: 'Hi {{email}}', body: 'You are number {{position}}.', enabled: true };

describe('a message saved', () => {
  it('is kept when its subject and body are in range and every tag is known', () => {
    expect(checkMessage(ok, [])).toEqual({ ok: true, value: ok });
    expect(checkMessage({ ...ok, body: '{{fields.company}}' }, ['company']).ok).toBe(true);
  });

  it.each([
    ['an empty subject', { subject: ' ' }, 'subject', 'empty'],
    ['a subject with CR', { subject: 'a\rb' }, 'subject', 'line break'],
    ['a subject with LF', { subject: 'a\nb' }, 'subject', 'line break'],
    ['a subject of 151 characters', { subject: 'x'.repeat(151) }, 'subject', '150'],
    ['an empty body', { body: '' }, 'body', 'empty'],
    ['a body of 5,001 characters', { body: 'x'.repeat(5001) }, 'body', '5000'],
    ['a body of 1 MB', { body: 'x'.repeat(1_000_000) }, 'body', '5000'],
    ['{{constructor}}', { body: '{{constructor}}' }, 'body', '`{{constructor}}` is not a merge tag'],
    ['{{__proto__}}', { body: '{{__proto__}}' }, 'body', 'is not a merge tag'],
    ['an unclosed {{', { body: 'a {{ email' }, 'body', 'not closed'],
    ['a }} never opened', { subject: 'a }}' }, 'subject', 'has no'],
    ['a tag of a field the waitlist lacks', { body: '{{fields.company}}' }, 'body', 'names no field'],
  ])('is refused naming the part for %s', (_, change, part, says) => {
    const checked = checkMessage({ ...ok, ...change }, []);
    expect(checked.ok).toBe(false);
    if (checked.ok || !('part' in checked)) throw new Error('refused without its part');
    expect(checked.part).toBe(part);
    expect(checked.reason).toContain(says);
  });

  it('counts characters, not UTF-16 units: 150 emoji are a subject', () => {
    expect(checkMessage({ ...ok, subject: '🎉'.repeat(150) }, []).ok).toBe(true);
  });
});

describe('a message sent', () => {
  const recipient = { ...sampleRecipient(['company'], 'https://w.example'), fields: { company: '<Acme>' } };
  const values = tagValues('Launch', 'https://app.example', recipient);

  it('fills every tag, people ahead one less than the position, a field removed since as empty', () => {
    const body =
      '{{waitlist_name}} {{email}} {{position}} {{people_ahead}} {{referral_count}} {{fields.company}} {{fields.gone}} {{access_url}}';
    const mail = renderMessage({ subject: 'S', body }, values);
    expect(mail?.text).toBe('Launch ada@example.com 42 41 3 <Acme>  https://app.example\n');
    expect(mail?.html).toContain('&lt;Acme&gt;');
  });

  it('ends with the unsubscribe link when given one, and keeps the subject on one line', () => {
    const mail = renderMessage(
      { subject: 'To {{fields.company}}', body: 'Hello' },
      tagValues('L', '', { ...recipient, fields: { company: 'A\r\nB' } }),
      'https://w.example/s/T/unsubscribe',
    );
    expect(mail?.subject).toBe('To A B');
    expect(mail?.text).toBe('Hello\n\nTo stop these emails: https://w.example/s/T/unsubscribe\n');
  });

  it('leaves the position empty once admitted', () => {
    const admitted = tagValues('L', '', { ...recipient, position: null });
    expect(renderMessage({ subject: 'S', body: '[{{position}}][{{people_ahead}}]' }, admitted)?.text).toBe(
      '[][]\n',
    );
  });
});
