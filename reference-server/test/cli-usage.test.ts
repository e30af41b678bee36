import { existsSync } from 'node:fs';
import { cliError, runCli } from '@waitlistkit/testkit';
import { describe, expect, it } from 'vitest';
import { runCommandLine } from '../src/cli/main.js';

/** The command line in process: the same code as the binary, without a process per case. */
async function run(argv: string[]) {
  let stdout = '';
  let stderr = '';
  const code = await runCommandLine(argv, {
    stdout: (t) => {
      stdout += t;
    },
    stderr: (t) => {
      stderr += t;
    },
    env: {},
  });
  return { code, stdout, stderr };
}

const OPERATIONS_COMMANDS = [
  'serve',
  'tenant create',
  'tenant set-plan',
  'operator create',
  'waitlist create',
  'waitlist update',
  'waitlist archive',
  'key create',
  'key revoke',
  'key list',
  'activity',
  'backup',
];

describe('waitlist-server command line', () => {
  it('lists every command of docs/command-line.md#commands in `pnpm -s waitlist-server --help`', async () => {
    const result = await runCli(['--help']);
    expect(result.code).toBe(0);
    for (const command of OPERATIONS_COMMANDS) {
      expect(result.stdout).toMatch(new RegExp(`^  ${command} `, 'm'));
    }
  });

  it.each(OPERATIONS_COMMANDS)('has --help for %s', async (command) => {
    const result = await run([...command.split(' '), '--help']);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(`Usage: waitlist-server ${command} [options]`);
    expect(result.stdout).toContain('--db PATH');
  });

  it.each([
    [['nope'], /Unknown command "nope"/],
    [['tenant', 'create', '--plan', 'pro'], /Missing --name/],
    [
      ['tenant', 'create', '--name', 'A', '--plan', 'gold'],
      /--plan must be one of free, pro, team, not "gold"/,
    ],
    [
      ['tenant', 'create', '--name', 'A', '--plan', 'pro', '--plan', 'free'],
      /--plan is given more than once/,
    ],
    [['tenant', 'create', '--name', 'A', '--plan', 'pro', '--colour', 'red'], /Unknown option --colour/],
    [['tenant', 'create', '--name', '--plan', 'pro'], /--name needs a value/],
    [['tenant', 'create', 'stray', '--name', 'A', '--plan', 'pro'], /Unexpected argument "stray"/],
    [['waitlist', 'update', '--waitlist', 'wl_x', '--pow-difficulty', '33'], /from 1 to 32, not "33"/],
    [['waitlist', 'update', '--waitlist', 'wl_x', '--ip-limit', '1.5'], /--ip-limit must be a whole number/],
    [['waitlist', 'update', '--waitlist', 'wl_x', '--referrals', 'yes'], /must be "on" or "off"/],
    [
      ['waitlist', 'update', '--waitlist', 'wl_x', '--origins', 'https://a.example/path'],
      /write https:\/\/a.example\./,
    ],
    [
      ['waitlist', 'update', '--waitlist', 'wl_x', '--origins', 'ftp://a.example'],
      /not an http or https origin/,
    ],
    [['waitlist', 'update', '--waitlist', 'wl_x', '--geo-allow', 'US,XX'], /"XX" is not an ISO 3166-1/],
    [['serve', '--port', '70000'], /--port must be a whole number from 0 to 65535/],
    [['serve', '--trust-proxy=yes'], /--trust-proxy takes no value/],
    [['serve', '--base-url', 'localhost:80'], /--base-url must be an http\(s\) URL/],
    [
      ['serve', '--db', 'mysql://db.example/waitlist'],
      /a mysql:\/\/ address is not a database .* postgres:\/\/ URL/,
    ],
    [
      ['tenant', 'create', '--name', 'A', '--plan', 'pro', '--db', 'http://db.example/'],
      /a http:\/\/ address/,
    ],
    [['key', 'list', '--tenant', 'ten_x', '--db', 'sqlite://waitlist.db'], /a sqlite:\/\/ address/],
    [['backup'], /Missing --to/],
    [['backup', '--to', 'copy.db', '--db', 'postgres://db.example/waitlist'], /for PostgreSQL use pg_dump/],
    [['backup', '--to', 'a.db', '--force'], /Unknown option --force/],
  ])('refuses %j with a usage error', async (args, message) => {
    const result = await run(args);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(JSON.parse(result.stderr)).toEqual({
      error: { code: 'usage_error', message: expect.stringMatching(message) },
    });
  });

  it('refuses a WAITLIST_DB of another scheme, hiding its password, and creates no folder named after it', async () => {
    let stderr = '';
    const code = await runCommandLine(['tenant', 'create', '--name', 'A', '--plan', 'pro'], {
      stdout: () => undefined,
      stderr: (t) => {
        stderr += t;
      },
      env: { WAITLIST_DB: 'mysql://admin:hunter2@db.example/waitlist' },
    });
    expect(code).toBe(2);
    const { error } = JSON.parse(stderr) as { error: { code: string; message: string } };
    expect(error.code).toBe('usage_error');
    expect(error.message).toMatch(/mysql:\/\//);
    expect(error.message).not.toContain('hunter2');
    expect(existsSync('mysql:')).toBe(false);
  });

  it('prints usage errors as JSON on stderr with exit code 2 from the real binary', async () => {
    const result = await runCli(['tenant', 'create', '--name', 'A', '--plan', 'gold']);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(cliError(result)).toEqual({
      code: 'usage_error',
      message: '--plan must be one of free, pro, team, not "gold".',
    });
  });
});
