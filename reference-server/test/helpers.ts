/** Helpers for the server's HTTP tests: a server per file, requests with the right headers. */
import { type ChallengeRequired, ChallengeRequiredSchema } from '@waitlistkit/protocol';
import { cli, type RunningServer, seedTenant, startServer, type Tenant, tempDir } from '@waitlistkit/testkit';
import { expect } from 'vitest';
import { searchText } from '../src/domain/search.js';

/** What `q` must find: the rows whose lower-cased email contains the lower-cased query, as written. */
export const naive = (q: string) => (s: { email: string }) => searchText(s.email).includes(searchText(q));

export const SECRET = 'test-secret-0123456789abcdef';
export const ORIGIN = 'https://landing.example';

export interface Harness {
  server: RunningServer;
  db: string;
  close(): Promise<void>;
  /** Runs a command of the command line against the server's database (while it runs). */
  cli<T = Record<string, unknown>>(args: string[]): Promise<T>;
  tenant(options?: Parameters<typeof seedTenant>[1]): Promise<Tenant>;
}

export async function harness(env: Record<string, string> = {}, args: string[] = []): Promise<Harness> {
  const dir = tempDir();
  const server = await startServer({ db: dir.db, env: { WAITLIST_SECRET: SECRET, ...env }, args });
  return {
    server,
    db: dir.db,
    async close() {
      await server.stop();
      dir.cleanup();
    },
    cli: (commandArgs) => cli(commandArgs, { db: dir.db }),
    tenant: (options) => seedTenant(dir.db, options),
  };
}

export function apiList(server: RunningServer, key: string | undefined, waitlistId: string, query = '') {
  return fetch(`${server.url}/v1/api/waitlists/${encodeURIComponent(waitlistId)}/subscribers${query}`, {
    headers: key === undefined ? {} : { Authorization: `Bearer ${key}` },
  });
}

/** The arguments of `message show` for a waitlist's message, its version in `lang` when given. */
export const messageShow = (waitlistId: string, kind = 'welcome', lang?: string): string[] => [
  'message',
  'show',
  '--waitlist',
  waitlistId,
  '--kind',
  kind,
  ...(lang === undefined ? [] : ['--lang', lang]),
];

export function apiCreate(server: RunningServer, key: string | undefined, waitlistId: string, body: unknown) {
  return fetch(`${server.url}/v1/api/waitlists/${encodeURIComponent(waitlistId)}/subscribers`, {
    method: 'POST',
    headers: {
      'Content-Type': 'application/json',
      ...(key === undefined ? {} : { Authorization: `Bearer ${key}` }),
    },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
}

const PUBLIC_HEADERS = { Origin: ORIGIN, 'Content-Type': 'application/json' };

function postPublic(server: RunningServer, path: string, body: unknown, headers: Record<string, string>) {
  return fetch(`${server.url}/v1/public/waitlists/${path}`, {
    method: 'POST',
    headers,
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
}

export function publicPost(
  server: RunningServer,
  waitlistId: string,
  body: unknown,
  headers: Record<string, string> = PUBLIC_HEADERS,
) {
  return postPublic(server, `${encodeURIComponent(waitlistId)}/subscribers`, body, headers);
}

/** `POST .../gates` (docs/gates.md#gates-before-the-submit); a string body is sent as it is. */
export function publicGates(
  server: RunningServer,
  waitlistId: string,
  body: unknown = {},
  headers: Record<string, string> = PUBLIC_HEADERS,
) {
  return postPublic(server, `${encodeURIComponent(waitlistId)}/gates`, body, headers);
}

export async function errorOf(res: Response): Promise<{ code: string; message: string }> {
  const body = (await res.json()) as { error: { code: string; message: string } };
  return body.error;
}

/** The password `seedTenant` gives its admin, and `addOperator` its operators. */
export const PASSWORD = 'correct horse battery';

/** Another operator of the tenant, through the command line; resolves to its sign-in email. */
export async function addOperator(
  h: Pick<Harness, 'cli'>,
  tenantId: string,
  role: 'admin' | 'member',
  email = `${role}-${Math.random().toString(36).slice(2)}@team.example`,
): Promise<string> {
  await h.cli([
    'operator',
    'create',
    '--tenant',
    tenantId,
    '--email',
    email,
    '--role',
    role,
    '--password',
    PASSWORD,
  ]);
  return email;
}

/** A browser-like session: cookies kept, Origin sent on posts, redirects not followed. */
export class Browser {
  cookies = new Map<string, string>();
  constructor(
    readonly base: string,
    readonly headers: Record<string, string> = {},
  ) {}

  private remember(res: Response) {
    for (const line of res.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const [name, value] = (pair as string).split('=') as [string, string];
      if (/Max-Age=0|Expires=Thu, 01 Jan 1970/i.test(line) || value === '') this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }

  get cookie() {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }

  async get(path: string) {
    const res = await fetch(this.base + path, {
      headers: { ...this.headers, Cookie: this.cookie },
      redirect: 'manual',
    });
    this.remember(res);
    return { res, html: await res.text() };
  }

  /** Posts a form; as pairs, a field may come several times (checkboxes of one name). */
  async post(
    path: string,
    form: Record<string, string> | [string, string][],
    origin: string | null = new URL(this.base).origin,
  ) {
    const res = await fetch(this.base + path, {
      method: 'POST',
      headers: {
        ...this.headers,
        Cookie: this.cookie,
        'Content-Type': 'application/x-www-form-urlencoded',
        ...(origin === null ? {} : { Origin: origin }),
      },
      body: new URLSearchParams(form),
      redirect: 'manual',
    });
    this.remember(res);
    return { res, html: await res.text() };
  }

  static csrf(html: string): string {
    return html.match(/name="_csrf" value="([^"]+)"/)?.[1] as string;
  }

  async signIn(email: string, password = PASSWORD) {
    const page = await this.get('/dashboard/sign-in');
    return this.post('/dashboard/sign-in', { email, password, _csrf: Browser.csrf(page.html) });
  }
}

/** Waits for a condition the server brings about in its own time (the worker polls every 100 ms). */
export async function until<T>(
  what: string,
  check: () => T | undefined | false | Promise<T | undefined | false>,
  timeoutMs = 20_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** The 428 body of a gate, checked against the protocol's schema. */
export async function gate(res: Response): Promise<ChallengeRequired> {
  expect(res.status).toBe(428);
  return ChallengeRequiredSchema.parse(await res.json());
}
