/**
 * The demo landing page served at / by `serve --demo`: a marketing page that embeds the widget
 * with its one script tag, exactly as a tenant's site would.
 */
import { type Page, renderPage } from '../../web/page.js';

const CSS = `
.hero { text-align: center; } .hero p { font-size: 1.1rem; }
waitlist-form { margin: 1.5rem auto 0; }
`;

export function demoPage(waitlistId: string, waitlistName: string, baseUrl: string): Page {
  return renderPage(
    waitlistName,
    () => (
      <main>
        <div class="card hero">
          <h1>{waitlistName}</h1>
          <p class="muted">Something new is coming. Join the waitlist to get in early.</p>
          <p class="muted" id="caption">
            While you type, this form passes a Challenge and a Proof of Work that bots pay for and you don't
            wait for; each friend who joins with your link moves you up 5 places.
          </p>
          <script
            src={`${baseUrl}/widget/waitlist.js`}
            data-waitlist-id={waitlistId}
            data-base-url={baseUrl}
            async
          />
        </div>
      </main>
    ),
    {
      css: CSS,
      // The widget: its file from the server, its WebAssembly kernel, Blob workers, its requests.
      scriptSrc: `${new URL(baseUrl).origin} 'wasm-unsafe-eval'`,
      extraCsp: `; worker-src blob:; connect-src ${new URL(baseUrl).origin}`,
    },
  );
}

export function infoPage(): Page {
  return renderPage('Waitlist server', () => (
    <main>
      <div class="card">
        <h1>Waitlist server</h1>
        <p>
          This is a waitlist reference server. The API is described at{' '}
          <a href="/v1/openapi.json">/v1/openapi.json</a>.
        </p>
      </div>
    </main>
  ));
}
