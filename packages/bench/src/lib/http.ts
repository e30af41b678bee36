/**
 * HTTP requests over keep-alive connections (node:http): one by default, so requests go one at a
 * time and are timed one by one; `sockets` allows that many requests in flight at once.
 */
import { Agent, type OutgoingHttpHeaders, request } from 'node:http';

export type Headers = OutgoingHttpHeaders;

export interface HttpClient {
  send(
    method: string,
    path: string,
    options?: { headers?: Headers; body?: unknown },
  ): Promise<{ status: number; text: string }>;
  /** JSON of a GET that must answer 200. */
  getJson<T = Record<string, unknown>>(path: string, headers?: Headers): Promise<T>;
  /** Per-request milliseconds of `n` GETs (after `warmup` untimed ones); each must answer 200. */
  timeGets(path: string, headers: Headers, n: number, options?: { warmup?: number }): Promise<number[]>;
  close(): void;
}

export function httpClient(baseUrl: string, { sockets = 1 } = {}): HttpClient {
  const agent = new Agent({ keepAlive: true, maxSockets: sockets });
  const send: HttpClient['send'] = (method, path, { headers = {}, body } = {}) =>
    new Promise((resolve, reject) => {
      const payload = body === undefined ? undefined : Buffer.from(JSON.stringify(body));
      const req = request(
        `${baseUrl}${path}`,
        {
          method,
          agent,
          headers: payload
            ? { 'content-type': 'application/json', 'content-length': payload.length, ...headers }
            : headers,
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () =>
            resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }),
          );
          res.on('error', reject);
        },
      );
      req.on('error', reject);
      req.end(payload);
    });
  const get = async (path: string, headers: Headers) => {
    const res = await send('GET', path, { headers });
    if (res.status !== 200) throw new Error(`GET ${path}: ${res.status} ${res.text.slice(0, 300)}`);
    return res.text;
  };
  return {
    send,
    getJson: async <T>(path: string, headers: Headers = {}) => JSON.parse(await get(path, headers)) as T,
    async timeGets(path, headers, n, { warmup = 3 } = {}) {
      for (let i = 0; i < warmup; i++) await get(path, headers);
      const out: number[] = [];
      for (let i = 0; i < n; i++) {
        const t0 = performance.now();
        await get(path, headers);
        out.push(performance.now() - t0);
      }
      return out;
    },
    close() {
      agent.destroy();
    },
  };
}
