/**
 * The form's style sheet, inside its shadow root so the host page's CSS cannot reach it. Pages
 * theme it with custom properties (they inherit through the shadow boundary) and `::part()`.
 * Text inherits the page's font and colour; only the fields paint their own background.
 */
const dark =
  '--bg:var(--waitlist-background,#1d1d24);--fg:var(--waitlist-text,#ececf1);--line:var(--waitlist-border,#6b6b7b);--bad:var(--waitlist-error,#fda29b);--good:var(--waitlist-success,#75e0a7)';

export const css = `:host{display:block}:host([hidden]){display:none}
.w{--accent:var(--waitlist-accent,#4f46e5);--on:var(--waitlist-accent-text,#fff);--radius:var(--waitlist-radius,8px);--bg:var(--waitlist-background,#fff);--fg:var(--waitlist-text,#1a1a22);--line:var(--waitlist-border,#8a8a99);--bad:var(--waitlist-error,#b42318);--good:var(--waitlist-success,#067647);font:inherit;color:inherit;max-width:var(--waitlist-max-width,30rem)}
.dark{${dark}}@media (prefers-color-scheme:dark){.auto{${dark}}}
label{display:block;margin-bottom:.35em;font-weight:600}
.row{display:flex;gap:.5em;flex-wrap:wrap}
input{flex:1 1 14em;min-width:0;font:inherit;padding:.6em .75em;border:1px solid var(--line);border-radius:var(--radius);background:var(--bg);color:var(--fg)}
input[aria-invalid=true]{border-color:var(--bad)}
button{font:inherit;font-weight:600;padding:.6em 1.1em;border:0;border-radius:var(--radius);background:var(--accent);color:var(--on);cursor:pointer}
button:disabled{opacity:.6;cursor:default}
:focus-visible{outline:2px solid var(--accent);outline-offset:2px}
p{margin:.5em 0 0}p:empty{margin:0}
.bad{color:var(--bad)}.good{color:var(--good)}
a{color:inherit}`;
