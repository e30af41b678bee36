/**
 * Message templates without I/O (domain/message-template.ts): what a saved template may say, and
 * what the mail shows of it, its values escaped in the HTML part.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  fill,
  fillSubject,
  htmlFromText,
  MERGE_TAGS,
  type MergeTag,
  parseTemplate,
  type TemplatePart,
} from '../src/domain/message-template.js';

const FIELDS = ['company', 'role'];

function parts(template: string): TemplatePart[] {
  const read = parseTemplate(template, FIELDS);
  if (!read.ok) throw new Error(read.reason);
  return read.value;
}

const reason = (template: string) => {
  const read = parseTemplate(template, FIELDS);
  return read.ok ? undefined : read.reason;
};

const values = (entries: [MergeTag, string][]) => new Map<MergeTag, string>(entries);

describe('a template when it is saved', () => {
  it('reads text and the listed tags, spaces inside the braces allowed', () => {
    expect(parts('Hi {{email}}, you are #{{ position }} at {{waitlist_name}}.')).toEqual([
      { text: 'Hi ' },
      { tag: 'email' },
      { text: ', you are #' },
      { tag: 'position' },
      { text: ' at ' },
      { tag: 'waitlist_name' },
      { text: '.' },
    ]);
    for (const tag of MERGE_TAGS) expect(parts(`{{${tag}}}`)).toEqual([{ tag }]);
    expect(parts('')).toEqual([]);
    expect(parts('No tags { at all }')).toEqual([{ text: 'No tags { at all }' }]);
  });

  it('reads fields.<key> of the waitlist’s fields, and refuses a field it does not have', () => {
    expect(parts('{{fields.company}}')).toEqual([{ tag: 'fields.company' }]);
    expect(reason('{{fields.budget}}')).toBe('`{{fields.budget}}` names no field of this waitlist.');
    expect(reason('{{fields.}}')).toMatch(/is not a merge tag/);
  });

  it('refuses an unknown tag by name, the names of objects’ own properties included', () => {
    for (const name of ['constructor', '__proto__', 'toString', 'hasOwnProperty', 'Email', 'first name'])
      expect(reason(`Hi {{${name}}}`)).toBe(
        `\`{{${name}}}\` is not a merge tag; the tags are ${[...MERGE_TAGS, 'fields.<key>'].join(', ')}.`,
      );
    expect(reason('{{}}')).toMatch(/^`\{\{ \}\}` is not a merge tag/);
  });

  it('refuses an unbalanced brace, showing where', () => {
    expect(reason('Hi {{email, see you')).toBe('a `{{` is not closed by `}}`: “{{email, see you”.');
    expect(reason('Hi {{email {{position}}')).toMatch(/^a `\{\{` is not closed by `\}\}`: “\{\{email /);
    expect(reason('Hi email}} there')).toBe('a `}}` has no `{{` before it: “Hi email}}”.');
    expect(reason('{{email}} and }}')).toBe('a `}}` has no `{{` before it: “ and }}”.');
  });

  it('answers a reason of bounded length for a template of 1 MB', () => {
    const huge = `${'{{'.repeat(10)}${'x'.repeat(1_000_000)}`;
    expect((reason(huge) ?? '').length).toBeLessThan(200);
    expect(reason(`${'a'.repeat(1_000_000)} {{nope}}`)).toMatch(/`\{\{nope\}\}`/);
  });

  it('never throws, and what it reads fills back to the template when each tag is given as written', () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom('{', '}', 'a', ' ', 'email', '.', '\n', '<') }), (t) => {
        const read = parseTemplate(t, FIELDS);
        if (!read.ok) return;
        const asWritten = values(
          read.value.flatMap((p) => ('tag' in p ? [[p.tag, `{{${p.tag}}}`] as [MergeTag, string]] : [])),
        );
        expect(fill(read.value, asWritten).replace(/\{\{\s*([^}]*?)\s*\}\}/g, '{{$1}}')).toBe(
          t.replace(/\{\{\s*([^}]*?)\s*\}\}/g, '{{$1}}'),
        );
      }),
    );
  });
});

describe('a message when it is sent', () => {
  it('fills each tag with its value, and leaves a tag without a value empty', () => {
    const p = parts('{{email}} is #{{position}} ({{people_ahead}} ahead){{access_url}}');
    expect(
      fill(
        p,
        values([
          ['email', 'ada@example.com'],
          ['position', '3'],
          ['people_ahead', '2'],
        ]),
      ),
    ).toBe('ada@example.com is #3 (2 ahead)');
  });

  it('keeps the subject on one line whatever the values hold', () => {
    const p = parts('Welcome to {{waitlist_name}}, {{fields.company}}');
    expect(
      fillSubject(
        p,
        values([
          ['waitlist_name', 'Launch'],
          ['fields.company', 'Acme\r\nBcc: x@evil.example'],
        ]),
      ),
    ).toBe('Welcome to Launch, Acme Bcc: x@evil.example');
  });

  it('makes the HTML part from the text: paragraphs, line breaks and links, everything else escaped', () => {
    const text = fill(
      parts('Hi {{fields.company}},\n\nYour link: {{referral_link}}.\nSee you\n\n\n'),
      values([
        ['fields.company', '<script>alert("x")</script> & co'],
        ['referral_link', 'https://w.example/r/ABC?x=1&y=<2>'],
      ]),
    );
    const html = htmlFromText(text);
    expect(html).toContain('<p>Hi &lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; co,</p>');
    expect(html).toContain(
      '<p>Your link: <a href="https://w.example/r/ABC?x=1&amp;y=">https://w.example/r/ABC?x=1&amp;y=</a>&lt;2&gt;.<br>\nSee you</p>',
    );
    expect(html).not.toContain('<script>');
    expect(htmlFromText('javascript:alert(1) and ftp://x.example')).toContain(
      '<p>javascript:alert(1) and ftp://x.example</p>',
    );
  });
});
