import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { clientKey, UNKNOWN_CLIENT } from '../src/domain/client-key.js';

/** Eight 16-bit groups written out in one of the spellings an address may arrive in. */
function spell(groups: number[], style: { compress: boolean; upper: boolean; pad: boolean; zone: boolean }) {
  let parts = groups.map((g) => g.toString(16).padStart(style.pad ? 4 : 1, '0'));
  let text = parts.join(':');
  if (style.compress) {
    // The longest run of zero groups (two or more) becomes `::`.
    let best = { at: -1, length: 1 };
    for (let at = 0; at < 8; ) {
      let end = at;
      while (end < 8 && groups[end] === 0) end++;
      if (end - at > best.length) best = { at, length: end - at };
      at = end === at ? at + 1 : end;
    }
    if (best.at >= 0) {
      parts = [...parts.slice(0, best.at), '', ...parts.slice(best.at + best.length)];
      text = parts.join(':');
      if (best.at === 0) text = `:${text}`;
      if (best.at + best.length === 8) text = `${text}:`;
    }
  }
  if (style.upper) text = text.toUpperCase();
  return style.zone ? `${text}%eth0` : text;
}

const group = fc.integer({ min: 0, max: 0xffff });
const groups = (n: number) => fc.array(group, { minLength: n, maxLength: n });
const style = fc.record({
  compress: fc.boolean(),
  upper: fc.boolean(),
  pad: fc.boolean(),
  zone: fc.boolean(),
});
/** A /64 outside ::/64, where IPv4-mapped addresses live (they are IPv4 clients, below). */
const prefix = groups(4).filter((p) => p.some((g) => g !== 0));

describe('client keys (docs/protocol.md#client-addresses)', () => {
  it('counts an IPv4 client by its address, and an IPv4-mapped IPv6 address as that IPv4 client', () => {
    expect(clientKey('198.51.100.7')).toBe('198.51.100.7');
    expect(clientKey('198.51.100.8')).toBe('198.51.100.8');
    for (const mapped of [
      '::ffff:198.51.100.7',
      '::FFFF:198.51.100.7',
      '0:0:0:0:0:ffff:198.51.100.7',
      '::ffff:c633:6407',
      '0000:0000:0000:0000:0000:FFFF:C633:6407',
    ])
      expect(clientKey(mapped), mapped).toBe('198.51.100.7');
  });

  it('counts an IPv6 client by its /64, whatever the spelling', () => {
    const key = clientKey('2001:db8:1:2::1');
    expect(key).toBe('2001:db8:1:2::/64');
    for (const same of [
      '2001:db8:1:2::ffff',
      '2001:DB8:1:2:ABCD::9',
      '2001:0db8:0001:0002:ffff:ffff:ffff:ffff',
      '2001:db8:1:2:0:0:0:1%eth0',
      '2001:db8:1:2::1.2.3.4',
    ])
      expect(clientKey(same), same).toBe(key);
    expect(clientKey('2001:db8:1:3::1')).toBe('2001:db8:1:3::/64');
    expect(clientKey('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(clientKey('fe80::1%eth0')).toBe('fe80:0:0:0::/64');
    expect(clientKey('::1')).toBe('0:0:0:0::/64');
    expect(clientKey('::')).toBe('0:0:0:0::/64');
  });

  it('counts anything that is not an address under one fixed key, and never throws', () => {
    for (const garbage of [
      undefined,
      '',
      'unknown',
      'localhost',
      '1.2.3',
      '01.2.3.4',
      '[::1]',
      '1::2::3',
      '%',
      ' ::1',
    ])
      expect(clientKey(garbage), String(garbage)).toBe(UNKNOWN_CLIENT);
    fc.assert(
      fc.property(fc.string(), (s) => {
        expect(typeof clientKey(s)).toBe('string');
      }),
    );
  });

  it('gives two addresses of one /64 one key, however they are written', () => {
    fc.assert(
      fc.property(prefix, groups(4), groups(4), style, style, (p, a, b, sa, sb) => {
        expect(clientKey(spell([...p, ...a], sa))).toBe(clientKey(spell([...p, ...b], sb)));
      }),
      { numRuns: 500 },
    );
  });

  it('gives addresses of two /64s two keys, and never an IPv4 client’s key', () => {
    fc.assert(
      fc.property(prefix, prefix, groups(4), groups(4), style, style, (p, q, a, b, sa, sb) => {
        fc.pre(p.some((g, i) => g !== q[i]));
        const [ka, kb] = [clientKey(spell([...p, ...a], sa)), clientKey(spell([...q, ...b], sb))];
        expect(ka).not.toBe(kb);
        expect(ka).toMatch(/::\/64$/);
      }),
      { numRuns: 500 },
    );
  });

  it('reads an address spelled any way as node reads it (the spelling helper is honest)', () => {
    fc.assert(
      fc.property(groups(8), style, (g, s) => {
        const text = spell(g, s);
        const url = new URL(`http://[${text.replace(/%.*$/, '')}]/`);
        expect(url.hostname).toBe(`[${spell(g, { compress: true, upper: false, pad: false, zone: false })}]`);
      }),
    );
  });
});
