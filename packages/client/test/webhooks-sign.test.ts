/** webhooks.sign: the headers a tenant's tests send to their own endpoint. */
import { describe, expect, it } from 'vitest';
import { webhooks } from '../src/index.js';
import { at, eventBody, newSecret, T } from './webhook-fixtures.js';

const secret = newSecret();
const body = eventBody('subscriber.confirmed');

describe('webhooks.sign', () => {
  it('gives the three headers, with the id and timestamp given', () => {
    const headers = webhooks.sign({ id: 'msg_1', timestamp: T, body }, secret);
    expect(Object.keys(headers)).toEqual(['webhook-id', 'webhook-timestamp', 'webhook-signature']);
    expect(headers['webhook-id']).toBe('msg_1');
    expect(headers['webhook-timestamp']).toBe(String(T));
    expect(headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]{43}=$/);
  });

  it('makes a fresh msg_ id and takes the current time by default', () => {
    const before = Math.floor(Date.now() / 1000);
    const a = webhooks.sign({ body }, secret);
    const b = webhooks.sign({ body }, secret);
    expect(a['webhook-id']).toMatch(/^msg_[A-Za-z0-9_-]{22}$/);
    expect(a['webhook-id']).not.toBe(b['webhook-id']);
    expect(Number(a['webhook-timestamp'])).toBeGreaterThanOrEqual(before);
    expect(Number(a['webhook-timestamp'])).toBeLessThanOrEqual(Math.floor(Date.now() / 1000));
  });

  it('takes a Date, rounded down to its second', () => {
    const headers = webhooks.sign({ timestamp: at(T, 999), body }, secret);
    expect(headers['webhook-timestamp']).toBe(String(T));
    expect(headers).toEqual(webhooks.sign({ id: headers['webhook-id'], timestamp: T, body }, secret));
  });

  it('signs the bytes of the body: a string and its UTF-8 bytes sign alike', () => {
    const text = JSON.stringify({ note: 'Zoë 🚀' });
    expect(webhooks.sign({ id: 'msg_1', timestamp: T, body: text }, secret)).toEqual(
      webhooks.sign({ id: 'msg_1', timestamp: T, body: new TextEncoder().encode(text) }, secret),
    );
  });

  it('works as fetch headers', () => {
    const headers = new Headers(webhooks.sign({ body }, secret));
    expect(webhooks.verify(body, headers, secret).id).toBe(headers.get('webhook-id'));
  });

  it.each([
    ['a malformed secret', { body }, 'whsec_not base64'],
    ['a secret without its prefix', { body }, secret.slice(6)],
    ['an empty id', { body, id: '' }, secret],
    ['an id with a space', { body, id: 'msg 1' }, secret],
    ['an id with a line break', { body, id: 'msg_1\r\nx-injected: 1' }, secret],
    ['a timestamp in fractional seconds', { body, timestamp: T + 0.5 }, secret],
    ['a negative timestamp', { body, timestamp: -1 }, secret],
    ['an invalid Date', { body, timestamp: new Date('nope') }, secret],
    ['a parsed body', { body: JSON.parse(body) }, secret],
    ['no input', undefined, secret],
  ])('refuses %s with a TypeError', (_, input, key) => {
    expect(() => webhooks.sign(input as never, key)).toThrow(TypeError);
  });
});
