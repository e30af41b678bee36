/** A marketing page on its own origin, embedding the widget's script tag, with a chosen CSP. */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface PageServer {
  origin: string;
  close(): Promise<void>;
}

export async function startPageServer(
  html: (path: string) => { body: string; csp?: string },
): Promise<PageServer> {
  const server: Server = createServer((req, res) => {
    const page = html(req.url ?? '/');
    res.setHeader('Content-Type', 'text/html; charset=utf-8');
    if (page.csp) res.setHeader('Content-Security-Policy', page.csp);
    res.end(page.body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** A plain landing page with the script tag as a tenant would paste it. */
export function landingPage(serviceUrl: string, waitlistId: string, extra = ''): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Launch</title>
<meta name="viewport" content="width=device-width, initial-scale=1"></head>
<body><main><h1>Something new is coming</h1><p>Join the waitlist.</p>
<script src="${serviceUrl}/widget/waitlist.js" data-waitlist-id="${waitlistId}" data-base-url="${serviceUrl}" ${extra} async></script>
</main></body></html>`;
}
