// The portal's one page layout: header with the product name and navigation, main, footer; escaping for any text in it.
import { escapeForbidden } from '../query/xml-text.js';
import { ASSET_VERSION } from './assets.js';

const ESCAPES: Readonly<Record<string, string>> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

export function escapeHtml(text: string): string {
  // A character HTML must not carry raw (a NUL the request log's filter echoes) is written as \uXXXX, as in the API's
  // messages; line breaks and tabs stay (a textarea's redirect URIs).
  return escapeForbidden(text).replace(/[&<>"']/g, (char) => ESCAPES[char]!);
}

/** What the frame of a page depends on: the portal's path (for links) and who is logged in, if anyone. */
export interface Frame {
  /** The portal's path, no trailing slash: '' when the portal has a host of its own. */
  readonly prefix: string;
  readonly session?: { readonly email: string; readonly csrfToken: string };
  /** The page's own path and query: where logging out comes back to, when it is a page without a session. */
  readonly here?: string;
}

/** The portal home's path: the prefix, or `/` when the portal has a host of its own. */
export function homeOf(prefix: string): string {
  return prefix === '' ? '/' : prefix;
}

/** A whole page; `body` is trusted HTML built with escapeHtml. No inline style or script: the CSP allows neither. */
export function page(frame: Frame, title: string, body: string): string {
  const { prefix } = frame;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)} · Dog Registry Developers</title>
<link rel="stylesheet" href="${prefix}/assets/portal.css?v=${ASSET_VERSION}">
<link rel="icon" href="${prefix}/favicon.svg?v=${ASSET_VERSION}" type="image/svg+xml">
<link rel="alternate icon" href="${prefix}/favicon.ico">
</head>
<body>
<a class="skip" href="#main">Skip to content</a>
<header class="site-header"><div class="bar">
<a class="brand" href="${homeOf(prefix)}"><img src="${prefix}/favicon.svg?v=${ASSET_VERSION}" alt="" width="28" height="28"><span>Dog Registry <small>Developers</small></span></a>
<nav aria-label="Portal">${navigation(frame)}</nav>
</div></header>
<main id="main">
${body}
</main>
<footer class="site-footer"><div class="bar">
<span>Dog Registry API · developer portal</span>
<span><a href="${prefix}/errors">Error codes</a> · <a href="${prefix}/versions">Versions</a> · <a href="${prefix}/changelog">Changelog</a> · <a href="${prefix}/openapi/v2.json">OpenAPI v2</a></span>
</div></footer>
</body>
</html>
`;
}

function navigation({ prefix, session, here }: Frame): string {
  const links = `<a href="${homeOf(prefix)}">Home</a><a href="${prefix}/reference">Reference</a><a href="${prefix}/errors">Errors</a><a href="${prefix}/versions">Versions</a>`;
  if (!session)
    return `${links}<a href="${prefix}/login">Log in</a><a class="button" href="${prefix}/signup">Sign up</a>`;
  return `${links}<a href="${prefix}/dashboard">Dashboard</a><form method="post" action="${prefix}/logout" class="inline">
<input type="hidden" name="csrf" value="${escapeHtml(session.csrfToken)}">${here === undefined ? '' : `<input type="hidden" name="next" value="${escapeHtml(here)}">`}<button type="submit" class="link" title="Log out ${escapeHtml(session.email)}">Log out</button></form>`;
}
