/** The dashboard's frame: navigation, who is signed in, sign-out; the parts pages are made of are parts.tsx. */
import type { ComponentChildren } from 'preact';
import type { Acting } from '../../app/guard.js';
import { COPY_SCRIPT, type Page, renderPage } from '../../web/page.js';

/** Who is signed in: an operator acting in their tenant, and their session's CSRF token for its forms. */
export interface SignedIn extends Acting {
  csrf: string;
}

const CSS = `
main { max-width: 60rem; }
.skip { position: absolute; left: -999px; } .skip:focus { left: 1rem; top: 1rem; background: var(--card); padding: 0.5rem; }
header.top { display: flex; flex-wrap: wrap; gap: 0.5rem 1.5rem; align-items: center; justify-content: space-between; padding: 0.75rem 1rem; border-bottom: 1px solid var(--border); background: var(--card); }
header.top nav ul { display: flex; flex-wrap: wrap; gap: 0.25rem 1rem; list-style: none; margin: 0; padding: 0; }
header.top nav a[aria-current="page"] { font-weight: 700; }
.who { display: flex; gap: 0.75rem; align-items: center; flex-wrap: wrap; }
.who form { margin: 0; }
.brand { font-weight: 700; text-decoration: none; color: var(--fg); }
section.card + section.card { margin-top: 1.5rem; }
h2 { font-size: 1.2rem; margin: 0 0 0.75rem; }
h1, h2, .who span { overflow-wrap: anywhere; }
table { width: 100%; border-collapse: collapse; font-size: 0.95rem; }
caption { text-align: left; font-weight: 600; padding-bottom: 0.5rem; }
th, td { text-align: left; padding: 0.5rem; border-bottom: 1px solid var(--border); vertical-align: top; }
.table-wrap { overflow-x: auto; }
.field { margin: 0 0 1rem; } .field label { display: block; font-weight: 600; margin-bottom: 0.25rem; }
.field .help { color: var(--muted); font-size: 0.9rem; margin: 0.25rem 0 0; }
.check { display: flex; gap: 0.5rem; align-items: center; margin: 0 0 1rem; } .check input { width: auto; min-height: 0; }
.error { color: #b3261e; font-weight: 600; } @media (prefers-color-scheme: dark) { .error { color: #ff8a80; } }
.notice { border-left: 4px solid var(--accent); padding: 0.5rem 1rem; background: var(--bg); }
.warning { border-left: 4px solid #b3261e; padding: 0.5rem 1rem; background: var(--bg); } div.warning { margin-bottom: 1rem; }
textarea { font: inherit; width: 100%; padding: 0.5rem; border: 1px solid var(--muted); border-radius: 8px; background: var(--bg); color: var(--fg); min-height: 5rem; }
select { font: inherit; padding: 0.5rem; border-radius: 8px; min-height: 44px; }
code, pre { font-family: ui-monospace, SFMono-Regular, Menlo, monospace; }
pre { white-space: pre-wrap; word-break: break-all; background: var(--bg); padding: 0.75rem; border-radius: 8px; border: 1px solid var(--border); }
.row { display: flex; gap: 0.75rem; flex-wrap: wrap; align-items: end; } .row > * { flex: 1 1 12rem; }
.actions { display: flex; gap: 0.75rem; flex-wrap: wrap; align-items: center; }
button.secondary { background: transparent; color: var(--accent); }
button.danger { background: #b3261e; border-color: #b3261e; color: #fff; }
fieldset { border: 1px solid var(--border); border-radius: 8px; padding: 1rem; margin: 0 0 1rem; }
legend { font-weight: 600; padding: 0 0.25rem; }
.pager { display: flex; gap: 1rem; justify-content: space-between; margin-top: 1rem; }
.tabs ul { display: flex; flex-wrap: wrap; gap: 0.25rem 1.5rem; list-style: none; margin: 0 0 1rem; padding: 0; }
.tabs a[aria-current="page"] { font-weight: 700; }
dl.facts { display: grid; grid-template-columns: max-content 1fr; gap: 0.5rem 1.5rem; margin: 0; }
dl.facts dt { font-weight: 600; } dl.facts dd { margin: 0; overflow-wrap: anywhere; }
svg.chart { display: block; width: 100%; height: auto; margin: 1rem 0; }
figure { margin: 1rem 0 0; } figcaption { font-weight: 600; }
svg.chart .bar { fill: var(--accent); } svg.chart .grid { stroke: var(--border); }
svg.chart .views { fill: var(--accent); opacity: 0.25; } svg.chart .line { fill: none; stroke: var(--accent); stroke-width: 2; } svg.chart .point { fill: var(--accent); }
svg.chart text { fill: var(--muted); font-size: 12px; } svg.chart .tick { text-anchor: end; dominant-baseline: middle; } svg.chart .day { text-anchor: middle; }
@media (max-width: 32rem) { svg.chart text { font-size: 18px; } dl.figures { grid-template-columns: 1fr; gap: 0.25rem; } dl.figures dd + dt { margin-top: 0.5rem; } }
details summary { cursor: pointer; color: var(--accent); min-height: 24px; }
`;

export type Section = 'waitlists' | 'keys' | 'webhooks' | 'activity';

export function dashboardPage(
  title: string,
  who: SignedIn | undefined,
  section: Section | undefined,
  body: ComponentChildren,
  /** A page's own style and script, besides the dashboard's, under the same nonce; `csp`, directives it adds. */
  own: { css?: string; script?: string; csp?: string } = {},
): Page {
  const link = (href: string, name: Section, label: string) => (
    <li>
      <a href={href} aria-current={section === name ? 'page' : undefined}>
        {label}
      </a>
    </li>
  );
  return renderPage(
    `${title} · Waitlist dashboard`,
    () => (
      <>
        <a class="skip" href="#main">
          Skip to content
        </a>
        <header class="top">
          <a class="brand" href="/dashboard">
            Waitlist dashboard
          </a>
          {who ? (
            <>
              <nav aria-label="Main">
                <ul>
                  {link('/dashboard/waitlists', 'waitlists', 'Waitlists')}
                  {link('/dashboard/keys', 'keys', 'API keys')}
                  {link('/dashboard/webhooks', 'webhooks', 'Webhooks')}
                  {link('/dashboard/activity', 'activity', 'Activity')}
                </ul>
              </nav>
              <div class="who">
                <span>
                  {who.operator.email} ({who.operator.role})
                </span>
                <form method="post" action="/dashboard/sign-out">
                  <input type="hidden" name="_csrf" value={who.csrf} />
                  <button type="submit" class="secondary">
                    Sign out
                  </button>
                </form>
              </div>
            </>
          ) : null}
        </header>
        <main id="main">
          <h1>{title}</h1>
          {body}
          <p id="copy-status" role="status" aria-live="polite" class="muted" />
        </main>
      </>
    ),
    // With no-referrer, browsers send `Origin: null` on form posts; same-origin keeps it useful.
    {
      css: CSS + (own.css ?? ''),
      script: COPY_SCRIPT + (own.script ?? ''),
      extraCsp: own.csp ?? '',
      referrerPolicy: 'same-origin',
    },
  );
}
