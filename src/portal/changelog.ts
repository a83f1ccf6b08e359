// The changelog at {portal}/changelog (SPEC §12): the releases, newest first, as typed data rendered by the page.
// Typed data rather than a CHANGELOG.md: the compiler checks it, the page escapes it like any other text, and the
// service (run from dist/) needs neither a Markdown renderer nor a file beside the build. Entries follow `git log`.
import type { FastifyInstance } from 'fastify';
import { routeEveryMethod, type WrongMethodAnswer } from '../http/route-every-method.js';
import { escapeHtml, page } from './html.js';
import { frameOf, sendPage } from './portal-context.js';

interface Release {
  /** The day the release reached main, YYYY-MM-DD (UTC). */
  readonly date: string;
  readonly title: string;
  readonly changes: readonly string[];
}

/** Newest first. Each change is what a client or an operator sees; plain text (escaped when rendered). */
export const RELEASES: readonly Release[] = [
  {
    date: '2026-11-29',
    title: 'Searches at any depth, errors by example',
    changes: [
      'A ranked search (q, or /search) serves every page, however deep: offsets past the first 1,000 results no ' +
        'longer answer 400, and the next link of a page names the next page that exists.',
      'Each error code’s page shows an example: a request that gets the error and the answer it gets.',
      'A repeated access_token, method or suppress_response_codes is a 400 (code 2009) that names it.',
      'A refresh that asks for a narrower scope keeps the refresh token’s own scope (RFC 6749 §6).',
      'A body with a Content-Encoding, or a +json media type, is refused with a message that says so (code 3002).',
      'OAuth error descriptions say what is wrong and what to do, in plain ASCII.',
      'The portal: apps shown as cards, both scopes checked for a new app, redirect URIs with a mobile app’s own ' +
        'scheme or [::1] (RFC 8252), logout back to the page it was sent from, login forms from other sites refused.',
      'With PostgreSQL unreachable, requests answer 9002 at once and /readyz within 2 s; once it is back, the next ' +
        'request succeeds.',
      'The changelog has a page of its own.',
    ],
  },
  {
    date: '2026-11-25',
    title: 'The developer portal',
    changes: [
      'Log in and log out: a session cookie (HttpOnly, SameSite=Lax), CSRF tokens on every form, failed logins slowed.',
      'A dashboard of your apps: create one (confidential with a secret shown once, or public for browser and mobile ' +
        'apps), rotate its secret (the old one is refused at once), delete it (its tokens stop within 5 s).',
      'The OAuth authorization-code flow at /oauth2/authorize: login and consent pages, PKCE S256 only, exact ' +
        'redirect URIs, single-use codes, refresh-token rotation; the tokens act on the consenting account.',
      'unauthorized_client for a grant the client may not use (a public client asking for client_credentials).',
      'The API reference rendered from each version’s OpenAPI document, with “try it”, served by the portal itself.',
      'Each app’s request log (newest first, filtered by status class or request id, each request’s details) and ' +
        'its usage per hour and per day, drawn on the server: every API request is recorded for the account that ' +
        'made it, off the request path.',
      'An HTML 404 page, a favicon, security headers on every page, and this changelog.',
    ],
  },
  {
    date: '2026-11-25',
    title: 'Ready for real clients',
    changes: [
      'Cache-Control on every answer: tenant data private, no-cache; the adoption list and OpenAPI documents public ' +
        'with a max-age; token, revoke and introspect no-store.',
      'CORS for the API, the OAuth endpoints and the OpenAPI documents (any origin, never credentials).',
      'Answers over 1 KiB compressed with gzip or brotli as Accept-Encoding asks, each coding with an ETag of its ' +
        'own; COMPRESSION=off leaves it to a proxy.',
      'Characters XML 1.0 cannot carry are refused in input (400, code 2010), so every XML answer is well-formed.',
      '/metrics can require a bearer token (METRICS_TOKEN) and counts requests, durations, tokens and sign-ups.',
      'A revoked token is refused on every node within 5 s (the token cache holds 4 s).',
      'Protocol errors (headers too large, a bad request line) answer in the catalogue’s shape with an X-Request-Id.',
      'OpenAPI documents that match what the service answers, checked against the whole test suite’s traffic.',
      'PG_POOL_SIZE sets the PostgreSQL connections of each node.',
    ],
  },
  {
    date: '2026-11-25',
    title: 'One definition per resource',
    changes: [
      'Each resource’s definition is the one source of its validation and its OpenAPI description, so the ' +
        'reference and the service agree on every field and limit.',
      'A create with an Idempotency-Key commits its answer with the item: a crash can no longer leave the key in ' +
        'progress. Both backends follow one write plan and one idempotency rule.',
      'The token, revoke and introspect endpoints authenticate a client one way and answer RFC 6749’s errors.',
    ],
  },
  {
    date: '2026-11-21',
    title: 'First release',
    changes: [
      'Dogs, owners, veterinarians and foods in v1 and v2, as JSON or XML, with nested paths and fields.',
      'ETags and conditional requests, paging with Link headers, Prefer: count=exact, Idempotency-Key on creates.',
      'Sorting, filters, full-text search per resource and a global search.',
      'OAuth 2.0 client credentials, one tenant per account, rate limits, and the open adoption list.',
      'Currency conversion (/convert) with the bundled European Central Bank rates; v1’s Deprecation headers.',
      'The error catalogue: every error with a code, a message that says how to fix it and a more_info link.',
      'SQLite and PostgreSQL backends; an OpenAPI 3.1 document per version; the portal’s home and sign-up.',
    ],
  },
];

/** The releases, newest first. */
function changelogBody(prefix: string): string {
  const releases = RELEASES.map(
    (release) => `<section class="release">
<h2>${escapeHtml(release.title)} <time datetime="${release.date}">${release.date}</time></h2>
<ul>
${release.changes.map((change) => `<li>${escapeHtml(change)}</li>`).join('\n')}
</ul>
</section>`,
  ).join('\n');
  return `<h1>Changelog</h1>
<p>What changed in each release, newest first. Releases are named for what they brought and dated by the day they
shipped; both API versions get every release (additions come to v1 and v2 alike). What v1 and v2 differ in, and
when v1 retires: <a href="${prefix}/versions">API versions</a>.</p>
${releases}`;
}

export function registerChangelogPage(app: FastifyInstance, prefix: string, wrongMethod: WrongMethodAnswer): void {
  const body = changelogBody(prefix);
  routeEveryMethod(app, {
    method: ['GET'],
    url: '/changelog',
    wrongMethod,
    handler: async (request, reply) => sendPage(reply, page(frameOf(request, prefix), 'Changelog', body)),
  });
}
