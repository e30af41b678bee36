import { blackhole, type DnsServer, startDnsServer, type Tenant } from '@waitlistkit/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiCreate, errorOf, type Harness, harness, ORIGIN, publicPost } from './helpers.js';

let dns: DnsServer;
let h: Harness;
let t: Tenant;

beforeAll(async () => {
  dns = await startDnsServer({
    'mail.example': [{ exchange: 'mx1.mail.example', priority: 10 }],
    'two.example': [
      { exchange: 'mx1.two.example', priority: 10 },
      { exchange: 'mx2.two.example', priority: 20 },
    ],
    'nullmx.example': [{ exchange: '', priority: 0 }],
    'nodata.example': [],
    'xn--bcher-kva.example': [{ exchange: 'mx.xn--bcher-kva.example', priority: 5 }],
  });
  h = await harness({ WAITLIST_DNS_SERVERS: dns.address });
  t = await h.tenant({ waitlist: ['--origins', ORIGIN, '--mx-check', 'on'] });
});
afterAll(async () => {
  await h.close();
  await dns.close();
});

describe('MX check against a DNS server on loopback', () => {
  it.each([
    ['ada@mail.example', 202],
    ['ada@two.example', 202],
    ['ada@bücher.example', 202],
    ['ada@nullmx.example', 400],
    ['ada@nodata.example', 400],
    ['ada@nxdomain.example', 400],
  ])('%s → %i on both endpoints', async (email, status) => {
    const pub = await publicPost(h.server, t.waitlistId, { email });
    const api = await apiCreate(h.server, t.key, t.waitlistId, { email: `api.${email}` });
    expect([pub.status, api.status]).toEqual([status, status]);
    if (status === 400) {
      const error = await errorOf(pub);
      expect(error.code).toBe('invalid_email');
      expect(error.message).toContain(email.split('@')[1]);
    }
  });

  it('asks the resolver in ASCII and not before the gates are passed', async () => {
    expect(dns.queries).toContain('xn--bcher-kva.example');
    const gated = await h.tenant({
      waitlist: ['--origins', ORIGIN, '--mx-check', 'on', '--challenge', 'on'],
    });
    const before = dns.queries.length;
    expect((await publicPost(h.server, gated.waitlistId, { email: 'new@fresh-domain.example' })).status).toBe(
      428,
    );
    expect(dns.queries.length).toBe(before);
  });

  it('checks nothing when the MX check is off', async () => {
    const off = await h.tenant({ waitlist: ['--origins', ORIGIN] });
    expect((await publicPost(h.server, off.waitlistId, { email: 'ada@nxdomain-off.example' })).status).toBe(
      202,
    );
    expect(dns.queries).not.toContain('nxdomain-off.example');
  });
});

describe('MX check with a resolver that never answers', () => {
  it('lets the signup through (fail-open) and logs it', async () => {
    const hole = await blackhole();
    const server = await harness({ WAITLIST_DNS_SERVERS: hole.address });
    try {
      const x = await server.tenant({ waitlist: ['--origins', ORIGIN, '--mx-check', 'on'] });
      const res = await publicPost(server.server, x.waitlistId, { email: 'ada@silent.example' });
      expect(res.status).toBe(202);
      expect(server.server.output()).toMatch(
        /"msg":"mx check inconclusive, signup let through","domain":"silent.example","code":"ETIMEOUT"/,
      );
    } finally {
      await server.close();
      await hole.close();
    }
  });
});
