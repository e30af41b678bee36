/**
 * An import's file as the dashboard receives it (docs/moving-a-list.md): a multipart form read
 * as a stream into a file of its own, at most `UPLOAD_MAX_BYTES`, so the form's fields (its CSRF
 * token) reach the session guard and the file waits for the page that checks it and the button
 * that commits it. Uploads are kept an hour, on the server that received them.
 */
import { randomBytes } from 'node:crypto';
import { createWriteStream, mkdirSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import Busboy from '@fastify/busboy';
import type { NextFunction, Request, RequestHandler } from 'express';
import type { Container } from '../container.js';
import { currentSession } from './session.js';

/** A spreadsheet's list of a hundred thousand people; larger lists go through the command line. */
export const UPLOAD_MAX_BYTES = 10 * 1024 * 1024;
const KEPT_MS = 60 * 60_000;
const DIR = join(tmpdir(), 'waitlist-imports');

export interface Upload {
  /** The name the commit form carries. */
  token: string;
  bytes: number;
  /** Larger than `UPLOAD_MAX_BYTES`: nothing was kept. */
  tooLarge: boolean;
}

/** Where the upload of `token` is kept, or undefined for a token that is not one of ours. */
export function uploadPath(token: string): string | undefined {
  return /^[A-Za-z0-9_-]{22}$/.test(token) ? join(DIR, `${token}.csv`) : undefined;
}

function forgetOld(now: number): void {
  for (const name of readdirSync(DIR)) {
    const path = join(DIR, name);
    if (now - statSync(path).mtimeMs > KEPT_MS) rmSync(path, { force: true });
  }
}

/**
 * Reads a multipart form: its text fields become `req.body`, its file is kept for `uploadOf`.
 * Without a session nothing is read: the guard refuses the request, and nobody's file is kept.
 */
export function receiveUpload(app: Container): RequestHandler {
  return (req, _res, next) => {
    receive(app, req, next).catch(next);
  };
}

async function receive(app: Container, req: Request, next: NextFunction): Promise<void> {
  if (!(req.headers['content-type'] ?? '').startsWith('multipart/form-data')) return next();
  if (!(await currentSession(app, req))) return next();
  mkdirSync(DIR, { recursive: true, mode: 0o700 });
  forgetOld(Date.now());
  const fields: Record<string, string> = {};
  let kept: Promise<Upload> | undefined;
  const parser = Busboy({
    headers: { ...req.headers, 'content-type': req.headers['content-type'] ?? '' },
    limits: { fileSize: UPLOAD_MAX_BYTES, files: 1, fields: 10, fieldSize: 1024 },
  });
  parser.on('field', (name, value) => {
    fields[name] = value;
  });
  parser.on('file', (_name, stream) => {
    const token = randomBytes(16).toString('base64url');
    const path = uploadPath(token) as string;
    kept = pipeline(stream, createWriteStream(path, { mode: 0o600 })).then(() => {
      const tooLarge = stream.truncated === true;
      if (tooLarge) rmSync(path, { force: true });
      return { token, bytes: tooLarge ? 0 : statSync(path).size, tooLarge };
    });
  });
  parser.on('error', (error) => next(error));
  parser.on('finish', () => {
    Promise.resolve(kept)
      .then((upload) => {
        req.body = fields;
        uploads.set(req, upload);
        next();
      })
      .catch(next);
  });
  req.pipe(parser);
}

const uploads = new WeakMap<Request, Upload | undefined>();

/** The file `receiveUpload` kept for this request. */
export const uploadOf = (req: Request): Upload | undefined => uploads.get(req);
