/** The page every door shows while the database is away (a 503): nothing was done, come back soon. */
import { type Page, renderPage } from '../../web/page.js';

export function unavailablePage(): Page {
  return renderPage('Back in a moment', () => (
    <main>
      <div class="card">
        <h1>Back in a moment</h1>
        <p>
          This service cannot reach its database just now, so nothing was done. Try again in a few seconds.
        </p>
      </div>
    </main>
  ));
}
