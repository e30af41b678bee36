/**
 * The widget's script-tag file, served at /widget/waitlist.js for pages on any origin. Read and
 * gzipped once at start; sent compressed to every client that accepts it.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { gzipSync } from 'node:zlib';
import type { Request, Response } from 'express';

export function widgetFileHandler(): (req: Request, res: Response) => void {
  const path = createRequire(import.meta.url).resolve('@waitlistkit/widget/waitlist.js');
  const plain = readFileSync(path);
  const gzipped = gzipSync(plain, { level: 9 });
  return (req, res) => {
    res.set({
      'Content-Type': 'text/javascript; charset=utf-8',
      'Cache-Control': 'public, max-age=300',
      // Loaded by pages on other origins, including ones that isolate themselves (COEP).
      'Cross-Origin-Resource-Policy': 'cross-origin',
      Vary: 'Accept-Encoding',
    });
    if (/\bgzip\b/.test(String(req.headers['accept-encoding'] ?? ''))) {
      res.set('Content-Encoding', 'gzip').send(gzipped);
    } else {
      res.send(plain);
    }
  };
}
