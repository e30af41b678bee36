/**
 * `message set` and `message show` (docs/command-line.md#messages) given what the issue lists as
 * hostile: each refused with a usage error naming its option, and the saved message unchanged.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from '@waitlistkit/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inProcess } from './cli-in-process.js';

const dir = tempDir();
afterAll(() => dir.cleanup());
const { run, ok } = inProcess(dir.db);

let admin: string;
let member: string;
let waitlist: string;
let files = 0;

function file(content: string | Buffer): string {
  const path = join(dir.dir, `body-${files++}.txt`);
  writeFileSync(path, content);
  return path;
}

const set = (args: string[], operator = admin) =>
  run(['message', 'set', '--operator', operator, '--waitlist', waitlist, '--kind', 'welcome', ...args]);
const shown = () => ok(['message', 'show', '--waitlist', waitlist, '--kind', 'welcome']);

beforeAll(async () => {
  const tenant = await ok(['tenant', 'create', '--name', 'Acme', '--plan', 'pro']);
  const operator = (role: string) =>
    ok(['operator', 'create', '--tenant', tenant.id, '--email', `${role}@acme.example`, '--role', role]);
  admin = (await operator('admin')).id;
  member = (await operator('member')).id;
  waitlist = (await ok(['waitlist', 'create', '--tenant', tenant.id, '--name', 'Launch'])).waitlist_id;
  const fields = file(JSON.stringify([{ key: 'company', label: 'Company', type: 'text' }]));
  await ok(['waitlist', 'update', '--waitlist', waitlist, '--fields', fields]);
  const saved = await set([
    '--subject',
    'Welcome, {{email}}',
    '--body-file',
    file('Hi from {{fields.company}}.'),
    '--on',
  ]);
  expect(saved.code).toBe(0);
});

describe('message set refuses, naming the option, and keeps the message as it was', () => {
  const body = (content: string | Buffer) => ['--subject', 'Hello', '--body-file', file(content)];
  const subject = (text: string) => ['--subject', text, '--body-file', file('Hello')];
  it.each([
    ['a body of 1 MB', () => body('x'.repeat(1_000_000)), /^--body-file .*more than 5000 characters/],
    [
      'a body of 5,001 characters',
      () => body('é'.repeat(5_001)),
      /^--body-file: .*more than 5000 characters/,
    ],
    ['a body that is not UTF-8', () => body(Buffer.from([0x48, 0x69, 0xff, 0xfe, 0x00])), /not UTF-8 text/],
    [
      'a body file that is not there',
      () => ['--subject', 'Hello', '--body-file', join(dir.dir, 'nope.txt')],
      /no such file/,
    ],
    ['a folder as the body file', () => ['--subject', 'Hello', '--body-file', dir.dir], /cannot be read/],
    ['an unbalanced {{', () => body('Hi {{email'), /^--body-file: /],
    ['{{constructor}}', () => body('{{constructor}}'), /`\{\{constructor\}\}` is not a merge tag/],
    ['{{__proto__}}', () => body('{{__proto__}}'), /`\{\{__proto__\}\}` is not a merge tag/],
    ['a tag of a field the waitlist does not ask', () => body('{{fields.role}}'), /`\{\{fields\.role\}\}`/],
    [
      'a subject with a line break',
      () => subject('Hello\r\nBcc: x@evil.example'),
      /^--subject: .*line break/,
    ],
    ['a subject of 151 characters', () => subject('x'.repeat(151)), /^--subject: .*150 characters/],
    ['an empty subject', () => subject('   '), /^--subject/],
    ['an unknown tag in the subject', () => subject('Hi {{name}}'), /^--subject: .*`\{\{name\}\}`/],
    ['both --on and --off', () => [...body('Hello'), '--on', '--off'], /--on and --off/],
  ])('%s', async (_, args, message) => {
    const before = await shown();
    const refused = await set(args());
    expect([refused.code, refused.error.code]).toEqual([2, 'usage_error']);
    expect(refused.error.message).toMatch(message);
    expect(await shown()).toEqual(before);
  });

  it('an unknown kind, with the kinds it takes', async () => {
    const refused = await run(['message', 'show', '--waitlist', waitlist, '--kind', 'constructor']);
    expect([refused.code, refused.error.code]).toEqual([2, 'usage_error']);
    expect(refused.error.message).toMatch(/^--kind must be one of welcome, referral, admitted/);
  });

  it('a member, who may read the message but not change it', async () => {
    const before = await shown();
    const refused = await set(['--subject', 'Mine now', '--body-file', file('Hello')], member);
    expect([refused.code, refused.error.code]).toEqual([1, 'forbidden']);
    expect(await shown()).toEqual(before);
  });
});

describe('message show', () => {
  it('prints the saved message with its preview for a sample subscriber', async () => {
    expect(await shown()).toMatchObject({
      kind: 'welcome',
      subject: 'Welcome, {{email}}',
      body: 'Hi from {{fields.company}}.',
      enabled: true,
      preview: { subject: expect.stringMatching(/^Welcome, \S+@\S+$/) },
    });
  });

  it('prints a message never saved as off and empty', async () => {
    expect(await ok(['message', 'show', '--waitlist', waitlist, '--kind', 'admitted'])).toMatchObject({
      kind: 'admitted',
      subject: '',
      body: '',
      enabled: false,
      preview: null,
    });
  });
});
