import type { Page } from '../../web/page.js';
import { FieldError } from './parts.js';
import { dashboardPage } from './shell.js';

export function signInPage(props: { token: string; email?: string; error?: string }): Page {
  return dashboardPage(
    'Sign in',
    undefined,
    undefined,
    <section class="card">
      <form method="post" action="/dashboard/sign-in">
        <input type="hidden" name="_csrf" value={props.token} />
        <FieldError id="sign-in-error" message={props.error} />
        <div class="field">
          <label for="email">Email</label>
          <input
            id="email"
            name="email"
            type="email"
            autocomplete="username"
            required
            value={props.email ?? ''}
          />
        </div>
        <div class="field">
          <label for="password">Password</label>
          <input id="password" name="password" type="password" autocomplete="current-password" required />
        </div>
        <button type="submit">Sign in</button>
      </form>
    </section>,
  );
}
