// The reference page's stylesheet, served at {portal}/assets/reference.css over the portal's own (portal-css.ts): a
// table of contents beside the operations on a wide screen, above them on a phone, where tables become cards.
export const REFERENCE_CSS = `main:has(> .reference), body:has(.reference) .bar { max-width: 84rem; }
.reference { display: block; }
@media (min-width: 64rem) {
  .reference { display: grid; grid-template-columns: 16rem minmax(0, 1fr); gap: 2.5rem; align-items: start; }
  .ref-toc { position: sticky; top: 1rem; max-height: calc(100vh - 2rem); overflow-y: auto; }
  .ref-toc summary { pointer-events: none; list-style: none; }
  .ref-toc summary::-webkit-details-marker { display: none; }
}
.ref-toc { display: block; background: var(--paper); border: 1px solid var(--line); border-radius: var(--radius);
  padding: .75rem .5rem .75rem .75rem; margin: 0 0 1.5rem; font-size: .88rem; }
.ref-toc summary { cursor: pointer; }
.ref-toc details:not([open]) summary { margin-bottom: 0; }
.ref-toc ul { list-style: none; margin: 0; padding: 0; }
.ref-toc ul ul { margin: .1rem 0 .6rem; }
.ref-toc a { display: flex; align-items: baseline; gap: .4rem; text-decoration: none; color: var(--ink);
  padding: .12rem .3rem; border-radius: 4px; }
.ref-toc a:hover { background: var(--wash); color: var(--brand); }
.ref-toc .toc-tag { font-weight: 700; text-transform: capitalize; color: var(--brand); margin-top: .2rem; }
.toc-title { font-size: .75rem; text-transform: uppercase; letter-spacing: .06em; color: var(--muted); margin: 0 0 .3rem .3rem;
  font-weight: 700; }
.ref-head nav.versions { margin-bottom: 1.25rem; }
.toc-path { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, "Liberation Mono", monospace; font-size: .92em;
  overflow-wrap: break-word; min-width: 0; }
.ref-toc .method { min-width: 3.6rem; font-size: .68rem; }
.ref-content { min-width: 0; }
.ref-content h1 .muted { font-size: 1.2rem; font-weight: 400; }
nav.versions { display: flex; flex-wrap: wrap; align-items: center; gap: .35rem .6rem; margin: 0 0 1rem; font-size: .95rem; }
nav.versions a { border: 1px solid var(--line); background: var(--paper); border-radius: 999px; padding: .1rem .7rem;
  text-decoration: none; }
nav.versions a[aria-current=page] { background: var(--brand); border-color: var(--brand); color: var(--brand-ink);
  font-weight: 600; }
details.overview > summary, details.try > summary { cursor: pointer; font-weight: 600; color: var(--accent); }
details.overview[open] > summary { margin-bottom: .75rem; }
.token-card h2 { margin-top: 0; font-size: 1.15rem; }
.token-card .field { margin-bottom: .5rem; }
.token-card input { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, "Liberation Mono", monospace; }
.tag-group { margin-top: 2.5rem; }
.tag-group > h2 { text-transform: capitalize; border-bottom: 2px solid var(--line); padding-bottom: .35rem; }
.op { background: var(--paper); border: 1px solid var(--line); border-radius: var(--radius); padding: 1.25rem;
  margin: 0 0 1.5rem; scroll-margin-top: 1rem; }
.op:target { border-color: var(--accent); box-shadow: 0 0 0 3px rgba(13,122,112,.15); }
.op-title { display: flex; flex-wrap: wrap; align-items: center; gap: .35rem .6rem; margin: 0 0 .6rem; }
.op-path { font-size: 1.02rem; background: none; padding: 0; font-weight: 700; }
.op-summary { flex-basis: 100%; font-size: 1.05rem; }
.op h4 { font-size: .8rem; text-transform: uppercase; letter-spacing: .06em; color: var(--muted); margin: 1.4rem 0 .5rem; }
.op-meta { font-size: .92rem; color: var(--muted); }
.op-meta .open { color: #17613f; font-weight: 600; }
.method { display: inline-block; min-width: 4.3rem; text-align: center; border-radius: 4px; padding: .08rem .4rem;
  font: 700 .78rem/1.5 ui-monospace, SFMono-Regular, Menlo, Consolas, "Liberation Mono", monospace; color: #fff;
  flex: none; }
.m-get { background: #2c5fb8; }
.m-post { background: #1d7a4e; }
.m-put { background: #9a5b00; }
.m-patch { background: #7a4e9a; }
.m-delete { background: #a3242a; }
.m-options, .m-head, .m-trace { background: #5b6478; }
.tag-deprecated, .required { display: inline-block; border-radius: 999px; padding: 0 .5rem; font-size: .72rem;
  font-weight: 700; text-transform: uppercase; letter-spacing: .04em; vertical-align: middle; }
.tag-deprecated { background: #fdf1dc; color: #8a5300; }
.required { background: var(--danger-wash); color: var(--danger); }
table.spec { font-size: .92rem; }
table.spec th { white-space: nowrap; }
table.spec td p, table.spec td ul { margin: 0 0 .35rem; }
table.spec td > :last-child { margin-bottom: 0; }
table.spec td:first-child { white-space: nowrap; }
table.spec .name { font-weight: 700; }
ul.rules { list-style: none; padding: 0; margin: .25rem 0 0; font-size: .85rem; color: var(--muted); }
ul.rules li { overflow-wrap: anywhere; }
code.type { white-space: normal; }
ul.headers { list-style: none; padding: 0; margin: 0; display: flex; flex-wrap: wrap; gap: .25rem .35rem; font-size: .85rem; }
ul.headers li { overflow-wrap: anywhere; }
ul.headers a { text-decoration: none; }
ul.headers a:hover code { text-decoration: underline; }
.shared-answers { display: flex; flex-wrap: wrap; align-items: baseline; gap: .3rem .6rem; font-size: .9rem;
  color: var(--muted); margin: 0 0 .5rem; }
.shared-answers ul { list-style: none; margin: 0; padding: 0; display: flex; flex-wrap: wrap; gap: .3rem .5rem; }
.shared-answers a { text-decoration: none; color: var(--ink); border: 1px solid var(--line); border-radius: 999px;
  padding: .05rem .55rem .05rem .1rem; display: inline-flex; align-items: center; gap: .35rem; background: var(--wash); }
.shared-answers a:hover { border-color: var(--accent); }
.media { font-size: .88rem; color: var(--muted); }
.example-label { font-size: .78rem; font-weight: 700; text-transform: uppercase; letter-spacing: .05em; color: var(--muted);
  margin: .5rem 0 .3rem; }
.example pre, .try-result pre { max-height: 26rem; overflow: auto; font-size: .88rem; }
.try-result pre { white-space: pre-wrap; overflow-wrap: anywhere; }
details.try { border-top: 1px solid var(--line); margin-top: 1.25rem; padding-top: .9rem; }
details.try > summary { display: inline-block; border: 1px solid var(--brand); border-radius: var(--radius);
  padding: .3rem .9rem; color: var(--brand); }
details.try > summary:hover { background: var(--ok-wash); }
details.try[open] > summary { margin-bottom: .9rem; }
.try-form { display: grid; grid-template-columns: repeat(auto-fill, minmax(min(100%, 17rem), 1fr)); gap: 0 1.25rem; }
.try-form > :not(.field), .try-form .field:has(textarea) { grid-column: 1 / -1; }
.try-form .field { margin-bottom: .85rem; min-width: 0; }
.try-form label { font-weight: 600; font-size: .92rem; }
.try-form label .hint { display: inline; font-size: .82rem; }
.try-form select { width: 100%; }
.try-form textarea { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, "Liberation Mono", monospace;
  font-size: .88rem; resize: vertical; }
.try-form button[disabled] { opacity: .55; cursor: not-allowed; }
.try-result { margin-top: 1rem; border-top: 1px dashed var(--line); padding-top: .75rem; }
.try-result:focus { outline: none; }
.try-status { display: flex; flex-wrap: wrap; gap: .5rem; align-items: center; overflow-wrap: anywhere; }
.header-list { margin: 0; }
.header-list dt { margin-top: .9rem; }
.header-list dt:first-child { margin-top: 0; }
.header-list dt .hint { display: inline; margin-left: .3rem; }
.header-list dd { margin: .2rem 0 0; }
.header-list dd p { margin: 0 0 .3rem; }
.header-list dt:target { background: #fff6d8; border-radius: 4px; }
@media (max-width: 40rem) {
  .op { padding: 1rem .85rem; }
  .op-path { font-size: .95rem; overflow-wrap: anywhere; }
  table.spec thead { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); }
  table.spec, table.spec tbody { display: block; width: 100%; }
  /* A row is a card: name, place and type on a line, the rules beside the type, the rest below. */
  table.spec tr { display: flex; flex-wrap: wrap; align-items: baseline; gap: .2rem .6rem; padding: .6rem .75rem;
    border-bottom: 1px solid var(--line); }
  table.spec tr:last-child { border-bottom: 0; }
  table.spec td { display: block; border: 0; padding: 0; white-space: normal; min-width: 0; }
  table.spec td[data-label=In] { color: var(--muted); font-size: .88rem; }
  table.spec td[data-label="Type and rules"], table.spec td[data-label=Description], table.spec td[data-label=Headers],
  table.spec td[data-label=Allows] { flex-basis: 100%; }
  table.spec ul.rules { display: inline; margin-left: .35rem; }
  table.spec ul.rules li { display: inline; }
  table.spec ul.rules li + li::before { content: " · "; }
  table.spec td[data-label=Headers]::before, table.spec td[data-label=Allows]::before { content: attr(data-label) ": ";
    color: var(--muted); font-size: .78rem; font-weight: 700; text-transform: uppercase; letter-spacing: .05em; }
  table.spec td[data-label=Headers] ul.headers { display: inline-flex; }
}
`;
