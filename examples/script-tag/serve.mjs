// Serves index.html as a marketing site would, on its own origin:
//   WAITLIST_ID=wl_… [WAITLIST_BASE_URL=http://127.0.0.1:8787] [PORT=5173] node examples/script-tag/serve.mjs
// The page's origin (http://127.0.0.1:5173) must be on the waitlist's origin allowlist:
//   pnpm -s waitlist-server waitlist update --waitlist wl_… --origins http://127.0.0.1:8787,http://127.0.0.1:5173
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';

const page = readFileSync(new URL('./index.html', import.meta.url), 'utf8');
const base = process.env.WAITLIST_BASE_URL ?? 'http://127.0.0.1:8787';
const html = page
  .replaceAll('http://127.0.0.1:8787', base)
  .replace('wl_REPLACE_ME', process.env.WAITLIST_ID ?? 'wl_REPLACE_ME');

const server = createServer((req, res) => {
  if (new URL(req.url ?? '/', 'http://x').pathname !== '/') {
    res.writeHead(404).end();
    return;
  }
  res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' }).end(html);
});
server.listen(Number(process.env.PORT ?? 5173), '127.0.0.1', () => {
  console.log(`marketing page on http://127.0.0.1:${server.address().port}/`);
});
