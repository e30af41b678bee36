/**
 * The widget's script-tag file, served at /widget/waitlist.js for pages on any origin, and its
 * locale files beside it at /widget/locales/<tag>.json (docs/languages.md#the-widget). Read and
 * gzipped once at start; sent compressed to every client that accepts it.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { LANGUAGES } from '@waitlistkit/protocol';
import type { NextFunction, Request, Response } from 'express';

const scriptPath = () => createRequire(import.meta.url).resolve('@waitlistkit/widget/waitlist.js');

/** Sends `plain` (or its gzip) with the caching and cross-origin headers every widget file has. */
function served(plain: Buffer, type: string, headers: Record<string, string> = {}) {
  const gzipped = gzipSync(plain, { level: 9 });
  return (req: Request, res: Response) => {
    res.set({
      'Content-Type': type,
      'Cache-Control': 'public, max-age=300',
      // Loaded by pages on other origins, including ones that isolate themselves (COEP).
      'Cross-Origin-Resource-Policy': 'cross-origin',
      Vary: 'Accept-Encoding',
      ...headers,
    });
    if (/\bgzip\b/.test(String(req.headers['accept-encoding'] ?? ''))) {
      res.set('Content-Encoding', 'gzip').send(gzipped);
    } else {
      res.send(plain);
    }
  };
}

export function widgetFileHandler(): (req: Request, res: Response) => void {
  return served(readFileSync(scriptPath()), 'text/javascript; charset=utf-8');
}

/**
 * `/widget/locales/:file`: the file of each language but English (built into the script), by
 * its exact name; any other name is the server's 404, and no name reaches the file system.
 */
export function widgetLocaleHandler(): (req: Request, res: Response, next: NextFunction) => void {
  const dir = join(dirname(scriptPath()), 'locales');
  const files = new Map<string, ReturnType<typeof served>>();
  for (const tag of LANGUAGES.filter((t) => t !== 'en')) {
    const plain = readFileSync(join(dir, `${tag}.json`));
    // Fetched by the widget with `fetch`, cross-origin: CORS as well as CORP.
    files.set(`${tag}.json`, served(plain, 'application/json', { 'Access-Control-Allow-Origin': '*' }));
  }
  return (req, res, next) => {
    const send = files.get(String(req.params.file));
    if (send) send(req, res);
    else next();
  };
}
