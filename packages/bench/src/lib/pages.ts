/**
 * A local web server for the Chromium benchmarks: the pages a visitor loads, on their own origin
 * (as a marketing site is), each path with its body, content type and headers (a CSP, say).
 */
import { createServer, type OutgoingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Page {
  body: string;
  /** HTML when absent. */
  type?: string;
  headers?: OutgoingHttpHeaders;
}

export interface PageServer {
  origin: string;
  /** The pages by path; any other path answers 404. */
  pages: Map<string, Page>;
  close(): Promise<void>;
}

export function pageServer(): Promise<PageServer> {
  const pages = new Map<string, Page>();
  const server = createServer((req, res) => {
    const page = pages.get(new URL(req.url ?? '/', 'http://x').pathname);
    if (!page) {
      res.writeHead(404).end();
      return;
    }
    res
      .writeHead(200, {
        'Content-Type': page.type ?? 'text/html; charset=utf-8',
        'Cache-Control': 'no-store',
        ...page.headers,
      })
      .end(page.body);
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({
        origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
        pages,
        close: () =>
          new Promise((done) => {
            server.close(() => done());
            server.closeAllConnections();
          }),
      }),
    ),
  );
}

/** A landing page with the widget's script tag, as a site owner pastes it. */
export const landing = (serviceUrl: string, waitlistId: string): Page => ({
  body: `<!doctype html><html lang="en"><title>Launch</title><main>
<script src="${serviceUrl}/widget/waitlist.js" data-waitlist-id="${waitlistId}" data-base-url="${serviceUrl}" async></script></main></html>`,
});
