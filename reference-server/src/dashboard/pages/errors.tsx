import type { Page } from '../../web/page.js';
import { dashboardPage, type SignedIn } from './shell.js';

export function problemPage(who: SignedIn | undefined, title: string, message: string): Page {
  return dashboardPage(
    title,
    who,
    undefined,
    <section class="card">
      <p>{message}</p>
      <p>
        <a href="/dashboard">Back to the dashboard</a>
      </p>
    </section>,
  );
}
