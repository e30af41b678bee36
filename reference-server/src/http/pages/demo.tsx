/**
 * The demo landing page served at / by `serve --demo`: a plain form that signs up through the
 * public endpoint, the way a marketing page would.
 */
import { type Page, renderPage } from './layout.js';

const SCRIPT = (waitlistId: string) => `
var form = document.getElementById('signup');
var status = document.getElementById('status');
var ref = new URLSearchParams(location.search).get('ref');
form.addEventListener('submit', function (event) {
  event.preventDefault();
  var body = { email: form.email.value };
  if (ref) body.referral_code = ref;
  status.textContent = 'Signing you up…';
  fetch('/v1/public/waitlists/' + ${JSON.stringify(waitlistId)} + '/subscribers', {
    method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body)
  }).then(function (res) { return res.json().then(function (data) { return { res: res, data: data }; }); })
    .then(function (r) {
      if (r.res.status === 202) {
        status.innerHTML = '';
        var p = document.createElement('p');
        p.textContent = "You're on the list. Your referral code: " + (r.data.referral_code || '(referrals off)') + '.';
        status.appendChild(p);
        if (r.data.status_url) {
          var a = document.createElement('a'); a.href = r.data.status_url; a.textContent = 'See your place in line';
          status.appendChild(a);
        }
      } else {
        status.textContent = (r.data.error && r.data.error.message) || ('Error ' + r.res.status);
      }
    }, function () { status.textContent = 'Could not reach the server.'; });
});
`;

export function demoPage(waitlistId: string, waitlistName: string): Page {
  return renderPage(
    waitlistName,
    () => (
      <main>
        <div class="card">
          <h1>{waitlistName}</h1>
          <p class="muted">Something new is coming. Join the waitlist to get in early.</p>
          <form id="signup">
            <label for="email">Email address</label>
            <input id="email" name="email" type="email" autocomplete="email" required />
            <p>
              <button type="submit">Join the waitlist</button>
            </p>
          </form>
          <div id="status" role="status" aria-live="polite" />
        </div>
      </main>
    ),
    { script: SCRIPT(waitlistId), extraCsp: "; connect-src 'self'" },
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
