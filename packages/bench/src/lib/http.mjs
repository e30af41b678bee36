/**
 * HTTP requests over keep-alive connections (node:http): one by default, so requests go one at a
 * time and are timed one by one; `sockets` allows that many requests in flight at once.
 */
import { Agent, request } from 'node:http';

export function httpClient(baseUrl, { sockets = 1 } = {}) {
  const agent = new Agent({ keepAlive: true, maxSockets: sockets });
  const send = (method, path, { headers = {}, body } = {}) =>
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
          const chunks = [];
          res.on('data', (c) => chunks.push(c));
          res.on('end', () =>
            resolve({ status: res.statusCode, text: Buffer.concat(chunks).toString('utf8') }),
          );
          res.on('error', reject);
        },
      );
      req.on('error', reject);
      req.end(payload);
    });
  return {
    send,
    /** JSON of a GET that must answer `status`. */
    async getJson(path, headers, status = 200) {
      const res = await send('GET', path, { headers });
      if (res.status !== status) throw new Error(`GET ${path}: ${res.status} ${res.text.slice(0, 300)}`);
      return JSON.parse(res.text);
    },
    /** Per-request milliseconds of `n` GETs (after `warmup` untimed ones); each must answer `status`. */
    async timeGets(path, headers, n, { warmup = 3, status = 200 } = {}) {
      for (let i = 0; i < warmup; i++) await this.getJson(path, headers, status);
      const out = [];
      for (let i = 0; i < n; i++) {
        const t0 = performance.now();
        const res = await send('GET', path, { headers });
        out.push(performance.now() - t0);
        if (res.status !== status) throw new Error(`GET ${path}: ${res.status} ${res.text.slice(0, 300)}`);
      }
      return out;
    },
    close() {
      agent.destroy();
    },
  };
}
