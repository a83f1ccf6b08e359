// The portal's stylesheet, served at {portal}/assets/portal.css: system fonts (nothing from other hosts), 390 px first.
export const PORTAL_CSS = `:root {
  --ink: #1d2433; --muted: #5b6478; --line: #dfe3ea; --paper: #ffffff; --wash: #f5f7fa;
  --brand: #0f5c55; --brand-ink: #ffffff; --accent: #0d7a70; --danger: #a3242a; --danger-wash: #fdf0f0;
  --ok-wash: #eef8f4; --radius: 8px;
  color-scheme: light;
}
*, *::before, *::after { box-sizing: border-box; }
html { -webkit-text-size-adjust: 100%; }
body {
  margin: 0; min-height: 100vh; display: flex; flex-direction: column; background: var(--wash); color: var(--ink);
  font: 16px/1.6 system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif;
}
a { color: var(--accent); text-underline-offset: 2px; }
a:hover { color: var(--brand); }
:focus-visible { outline: 3px solid #f0b429; outline-offset: 2px; border-radius: 2px; }
.skip { position: absolute; left: -999px; top: 0; background: var(--paper); padding: .5rem 1rem; z-index: 10; }
.skip:focus { left: .5rem; }
.bar { max-width: 64rem; margin: 0 auto; padding: .75rem 1rem; display: flex; flex-wrap: wrap; gap: .5rem 1.5rem;
  align-items: center; justify-content: space-between; }
.site-header { background: var(--brand); color: var(--brand-ink); }
.site-header a, .site-header .link { color: var(--brand-ink); text-decoration: none; }
.site-header a:hover, .site-header .link:hover { text-decoration: underline; color: var(--brand-ink); }
.brand { display: flex; align-items: center; gap: .6rem; font-weight: 700; font-size: 1.15rem; }
.brand small { font-weight: 400; opacity: .85; }
.brand img { display: block; }
nav { display: flex; flex-wrap: wrap; align-items: center; gap: .25rem 1rem; font-size: .95rem; }
nav .button { border: 1px solid rgba(255,255,255,.7); border-radius: var(--radius); padding: .15rem .7rem; }
form.inline { display: inline; margin: 0; }
button.link { background: none; border: 0; padding: 0; font: inherit; cursor: pointer; }
main { flex: 1; width: 100%; max-width: 64rem; margin: 0 auto; padding: 1.5rem 1rem 3rem; }
main > :first-child { margin-top: 0; }
h1 { font-size: 1.9rem; line-height: 1.25; margin: .5rem 0 1rem; letter-spacing: -.01em; }
h2 { font-size: 1.35rem; line-height: 1.3; margin: 2rem 0 .75rem; }
h3 { font-size: 1.1rem; margin: 1.5rem 0 .5rem; }
p, ul, ol { margin: 0 0 1rem; }
.lead { font-size: 1.15rem; color: var(--muted); max-width: 44rem; }
code, pre, kbd { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, "Liberation Mono", monospace; font-size: .9em; }
code { background: #eef1f5; border-radius: 4px; padding: .05em .3em; overflow-wrap: anywhere; }
pre { background: #1d2433; color: #e8ecf3; border-radius: var(--radius); padding: .9rem 1rem; overflow-x: auto;
  line-height: 1.5; margin: 0 0 1rem; }
pre code { background: none; padding: 0; color: inherit; overflow-wrap: normal; }
.card { background: var(--paper); border: 1px solid var(--line); border-radius: var(--radius); padding: 1.25rem;
  margin: 0 0 1.25rem; }
.narrow { max-width: 28rem; }
.steps { counter-reset: step; list-style: none; padding: 0; }
.steps > li { counter-increment: step; position: relative; padding-left: 2.5rem; margin-bottom: 1.25rem; }
.steps > li::before { content: counter(step); position: absolute; left: 0; top: .1rem; width: 1.8rem; height: 1.8rem;
  border-radius: 50%; background: var(--brand); color: var(--brand-ink); display: grid; place-items: center;
  font-weight: 700; font-size: .9rem; }
.grid { display: grid; gap: 1rem; grid-template-columns: repeat(auto-fit, minmax(14rem, 1fr)); margin-bottom: 1.5rem; }
.grid .card { margin: 0; }
.grid h3 { margin-top: 0; }
.table-wrap { overflow-x: auto; background: var(--paper); border: 1px solid var(--line); border-radius: var(--radius);
  margin: 0 0 1.25rem; }
table { border-collapse: collapse; width: 100%; }
th, td { text-align: left; padding: .55rem .8rem; border-bottom: 1px solid var(--line); vertical-align: top; }
th { font-size: .85rem; text-transform: uppercase; letter-spacing: .04em; color: var(--muted); background: var(--wash); }
tr:last-child td { border-bottom: 0; }
label { display: block; font-weight: 600; margin-bottom: .3rem; }
.hint { display: block; font-weight: 400; color: var(--muted); font-size: .9rem; }
.field { margin-bottom: 1rem; }
fieldset { border: 0; padding: 0; margin: 0 0 1rem; }
legend { font-weight: 600; margin-bottom: .3rem; }
.choice { font-weight: 400; display: flex; gap: .5rem; align-items: center; }
input[type=email], input[type=password], input[type=text], input[type=url], input:not([type]), textarea {
  display: block; width: 100%; font: inherit; padding: .55rem .7rem; border: 1px solid #b9c0cc;
  border-radius: var(--radius); background: var(--paper); color: var(--ink); }
input:focus-visible { border-color: var(--accent); }
.btn, button[type=submit]:not(.link) { display: inline-block; font: inherit; font-weight: 600; cursor: pointer;
  background: var(--brand); color: var(--brand-ink); border: 0; border-radius: var(--radius); padding: .6rem 1.2rem;
  text-decoration: none; }
.btn:hover, button[type=submit]:not(.link):hover { background: #0b4a44; color: var(--brand-ink); }
.alert { border-radius: var(--radius); padding: .75rem 1rem; margin: 0 0 1rem; background: var(--danger-wash);
  border: 1px solid #efc2c4; color: var(--danger); }
.notice { border-radius: var(--radius); padding: .75rem 1rem; margin: 0 0 1rem; background: var(--ok-wash);
  border: 1px solid #bfe3d5; }
.muted { color: var(--muted); }
.secret { display: block; background: #eef1f5; padding: .5rem .7rem; border-radius: var(--radius); word-break: break-all; }
.site-footer { background: var(--paper); border-top: 1px solid var(--line); color: var(--muted); font-size: .9rem; }
@media (max-width: 40rem) {
  h1 { font-size: 1.55rem; }
  .bar { padding: .6rem .9rem; }
  main { padding: 1rem .9rem 2rem; }
  th, td { padding: .45rem .55rem; }
}
/* An app's pages: request log and usage (request-log-html.ts, usage-html.ts, svg-chart.ts). */
.sr-only { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
.app-links { display: flex; flex-wrap: wrap; gap: .2rem .8rem; margin-bottom: .4rem; font-size: .95rem; }
.crumbs { font-size: .9rem; color: var(--muted); margin-bottom: .25rem; }
h1 .muted { font-weight: 400; }
.app-id { color: var(--muted); margin-bottom: 1rem; }
.tabs { display: flex; gap: .25rem; border-bottom: 1px solid var(--line); margin: 0 0 1.25rem; }
.tabs a { padding: .5rem .9rem; text-decoration: none; color: var(--muted); font-weight: 600;
  border-bottom: 3px solid transparent; margin-bottom: -1px; }
.tabs a:hover { color: var(--ink); }
.tabs a[aria-current=page] { color: var(--brand); border-bottom-color: var(--brand); }
.filters { display: flex; flex-wrap: wrap; gap: .75rem 1rem; align-items: flex-end; background: var(--paper);
  border: 1px solid var(--line); border-radius: var(--radius); padding: 1rem; margin: 0 0 1.25rem; }
.filters .field { margin: 0; }
.filters label .muted { font-weight: 400; }
.filters .grow { flex: 1 1 16rem; }
.filters .actions { display: flex; gap: 1rem; align-items: center; }
select { display: block; font: inherit; padding: .5rem 2rem .5rem .7rem; border: 1px solid #b9c0cc;
  border-radius: var(--radius); background: var(--paper); color: var(--ink); min-width: 7rem; }
.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
table.log { font-size: .92rem; }
table.log th, table.log td { padding: .5rem .6rem; }
table.log th { letter-spacing: .02em; }
table.log td { white-space: nowrap; }
table.log td.path { white-space: normal; min-width: 10rem; }
table.log time, .rid { font-variant-numeric: tabular-nums; }
.rid { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, "Liberation Mono", monospace; font-size: .82em; }
table.log td:last-child { white-space: normal; min-width: 9.5rem; max-width: 10rem; overflow-wrap: anywhere; }
.status { display: inline-block; min-width: 2.8rem; text-align: center; border-radius: 999px; padding: 0 .5rem;
  font-weight: 700; font-size: .85rem; font-variant-numeric: tabular-nums; }
.s2 { fill: #2f9e77; background: #2f9e77; }
.s3 { fill: #4063d8; background: #4063d8; }
.s4 { fill: #e8a33d; background: #e8a33d; }
.s5 { fill: #9e1b32; background: #9e1b32; }
.status.s2 { background: #e1f3ea; color: #17613f; }
.status.s3 { background: #e6ecfb; color: #2c4aa6; }
.status.s4 { background: #fdf1dc; color: #8a5300; }
.status.s5 { background: #fbe3e7; color: #8c1a2e; }
.pager { display: flex; gap: 1rem; justify-content: flex-end; margin-bottom: 1.25rem; }
.pager a { border: 1px solid var(--line); background: var(--paper); border-radius: var(--radius); padding: .4rem .9rem;
  text-decoration: none; font-weight: 600; }
.pager a[rel=next]::after { content: " →"; }
.request-line { font-size: 1.1rem; margin: 0 0 1rem; display: flex; flex-wrap: wrap; gap: .5rem; align-items: center; }
.details { display: grid; grid-template-columns: 9rem 1fr; gap: .45rem 1rem; margin: 0; }
.details dt { color: var(--muted); font-weight: 600; }
.details dd { margin: 0; overflow-wrap: anywhere; }
.links { display: flex; flex-wrap: wrap; gap: 1rem; align-items: center; }
.charts { display: grid; gap: 1.25rem; grid-template-columns: repeat(auto-fit, minmax(min(100%, 26rem), 1fr)); }
.chart-card h2 { margin-top: 0; font-size: 1.15rem; }
.chart-card .muted { font-weight: 400; }
.total { font-size: .95rem; color: var(--muted); margin-bottom: .5rem; }
.total strong { font-size: 1.6rem; color: var(--ink); margin-right: .2rem; }
svg.chart { display: block; width: 100%; height: auto; margin: 0 0 .75rem; font-family: inherit; }
svg.chart .gridline { stroke: #e8ebf0; stroke-width: 1; }
svg.chart .axis { stroke: #9aa3b2; stroke-width: 1; }
svg.chart .tick { fill: var(--muted); font-size: 11px; }
svg.chart .seg { stroke: var(--paper); stroke-width: .6; }
svg.chart .empty-note { fill: var(--muted); font-size: 14px; font-weight: 600; }
.legend { list-style: none; padding: 0; margin: 0 0 .75rem; display: grid; gap: .3rem 1rem;
  grid-template-columns: repeat(auto-fit, minmax(12rem, 1fr)); font-size: .92rem; }
.legend li { display: flex; align-items: center; gap: .4rem; }
.legend strong { margin-left: auto; font-variant-numeric: tabular-nums; }
.swatch { display: inline-block; width: .85rem; height: .85rem; border-radius: 3px; flex: none; }
details.numbers summary { cursor: pointer; color: var(--accent); font-weight: 600; margin-bottom: .5rem; }
details.numbers .table-wrap { margin: 0; }
details.numbers th[scope=row] { text-transform: none; letter-spacing: 0; font-size: .9rem; font-weight: 400;
  white-space: nowrap; color: var(--ink); background: none; font-variant-numeric: tabular-nums; }
@media (max-width: 40rem) {
  .chart-card { padding: .9rem .75rem; }
  .details { grid-template-columns: 1fr; gap: .1rem; }
  .details dd { margin-bottom: .5rem; }
  .filters .actions { width: 100%; }
  table.log thead { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); }
  table.log, table.log tbody, table.log tr, table.log td { display: block; width: 100%; }
  table.log tr { border-bottom: 1px solid var(--line); padding: .5rem 0; }
  table.log tr:last-child { border-bottom: 0; }
  table.log td { border: 0; padding: .15rem .8rem; display: grid; grid-template-columns: 6.5rem 1fr; gap: .5rem;
    white-space: normal; min-width: 0; }
  table.log td.path, table.log td:last-child { min-width: 0; max-width: none; }
  table.log td > * { justify-self: start; }
  table.log td::before { content: attr(data-label); color: var(--muted); font-size: .8rem; text-transform: uppercase;
    letter-spacing: .04em; padding-top: .15rem; }
  table.log .num { text-align: left; }
}
.card > :first-child { margin-top: 0; }
.actions { display: flex; flex-wrap: wrap; gap: .5rem .75rem; align-items: center; }
button[type=submit].secondary:not(.link) { background: var(--paper); color: var(--brand);
  box-shadow: inset 0 0 0 1px var(--brand); }
button[type=submit].secondary:not(.link):hover { background: var(--ok-wash); color: var(--brand); }
.app-actions form.inline button[type=submit]:not(.link) { font-size: .9rem; padding: .35rem .8rem; white-space: nowrap;
  background: var(--paper); color: var(--brand); box-shadow: inset 0 0 0 1px var(--brand); }
.app-actions form.inline button[type=submit]:not(.link):hover { background: var(--ok-wash); }
.app-actions form[action$="/apps/delete"] button[type=submit]:not(.link) { color: var(--danger);
  box-shadow: inset 0 0 0 1px var(--danger); }
.app-actions form[action$="/apps/delete"] button[type=submit]:not(.link):hover { background: var(--danger-wash); }
.apps { list-style: none; padding: 0; margin: 0 0 1.25rem; }
.app-head { display: flex; flex-wrap: wrap; align-items: baseline; gap: .25rem .75rem; margin-bottom: .75rem; }
.app-head h3 { margin: 0; overflow-wrap: anywhere; }
.badge { font-size: .8rem; font-weight: 600; text-transform: uppercase; letter-spacing: .04em; color: var(--brand);
  background: var(--ok-wash); border-radius: 999px; padding: .05rem .6rem; }
.app-facts { display: grid; grid-template-columns: repeat(auto-fit, minmax(13rem, 1fr)); gap: .5rem 1.5rem;
  margin: 0 0 1rem; }
.app-facts dt { font-size: .8rem; font-weight: 600; text-transform: uppercase; letter-spacing: .04em;
  color: var(--muted); }
.app-facts dd { margin: 0; }
code.client-id { white-space: nowrap; overflow-wrap: normal; }
.app-actions { display: flex; flex-wrap: wrap; gap: .5rem 1rem; align-items: center; border-top: 1px solid var(--line);
  padding-top: .75rem; }
.app-actions .app-links { margin: 0; }
.app-actions form.inline { display: inline-flex; gap: .5rem; }
.lead strong, h1, h2, h3, .card p, dd { overflow-wrap: anywhere; }
code.long { display: block; max-height: 10rem; overflow-y: auto; }
.consent h1 { font-size: 1.5rem; }
.alert, .notice { overflow-wrap: anywhere; }
.release h2 { display: flex; flex-wrap: wrap; align-items: baseline; gap: .25rem .75rem; }
.release time { font-size: .9rem; font-weight: 400; color: var(--muted); }
`;
