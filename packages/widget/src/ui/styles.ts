/**
 * The form's style sheet, inside its shadow root so the host page's CSS cannot reach it. Pages
 * theme it with custom properties (they inherit through the shadow boundary) and `::part()`.
 * Text inherits the page's font and colour; only the fields paint their own background.
 * Written in logical directions (block, inline start and end; flex rows): under `dir="rtl"`
 * the layout mirrors itself. An input's text takes the direction of what is typed (an address
 * is written left to right in any language).
 */
const dark =
  '--bg:var(--waitlist-background,#1d1d24);--fg:var(--waitlist-text,#ececf1);--line:var(--waitlist-border,#6b6b7b);--bad:var(--waitlist-error,#fda29b);--good:var(--waitlist-success,#75e0a7)';

// One line, and the shortest selectors that hold: the script tag carries every byte.
export const css = `:host{display:block}:host([hidden]){display:none}.w{--a:var(--waitlist-accent,#4f46e5);--r:var(--waitlist-radius,8px);--bg:var(--waitlist-background,#fff);--fg:var(--waitlist-text,#1a1a22);--line:var(--waitlist-border,#8a8a99);--bad:var(--waitlist-error,#b42318);--good:var(--waitlist-success,#067647);max-width:var(--waitlist-max-width,30rem)}.dark{${dark}}@media (prefers-color-scheme:dark){.auto{${dark}}}label{display:block;margin-block-end:.35em;font-weight:600}.row,.c{display:flex;gap:.5em}.row{flex-wrap:wrap}input,select,button{font:inherit;padding:.6em .75em;border:1px solid var(--line);border-radius:var(--r);background:var(--bg);color:var(--fg)}input,select{flex:1 1 14em;box-sizing:border-box;width:100%;min-width:0}input{unicode-bidi:plaintext}[aria-invalid=true]{border-color:var(--bad)}.q,form>button{margin-block-start:.75em}.c{font-weight:400}.c input{flex:none;width:auto}button{font-weight:600;padding:.6em 1.1em;border:0;background:var(--a);color:var(--waitlist-accent-text,#fff);cursor:pointer}button:disabled{opacity:.6;cursor:default}:focus-visible{outline:2px solid var(--a);outline-offset:2px}p{margin:.5em 0 0}p:empty{margin:0}.bad{color:var(--bad)}.good{color:var(--good)}a{color:inherit}`;
