/**
 * The service a page's form talks to in the happy-dom tests, started for the file: the form's
 * description (no fields unless a test says otherwise) and the view it counts, every other
 * request an error. Tests add their handlers with `server.use` and `server.resetHandlers()` drops them.
 */
import { setupServer } from 'msw/node';
import { afterAll, beforeAll } from 'vitest';
import { formDescription, viewCounter } from './fake-service.js';

export function pageService() {
  const views = viewCounter();
  const server = setupServer(formDescription(), views.handler, views.preflight);
  beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
  afterAll(() => server.close());
  return { server, views };
}
