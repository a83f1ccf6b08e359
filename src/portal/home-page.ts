// The portal's home page at {portal}: where browsers and the dev./developer. hosts are sent; a quickstart on the real
// {base} and {portal}.
import type { FastifyInstance } from 'fastify';
import type { Config } from '../config.js';
import { routeEveryMethod, type WrongMethodAnswer } from '../http/route-every-method.js';
import { CURRENT_VERSION } from '../http/versions.js';
import { escapeHtml, page } from './html.js';
import { frameOf, sendPage } from './portal-context.js';

export function registerHomePage(
  app: FastifyInstance,
  config: Config,
  prefix: string,
  wrongMethod: WrongMethodAnswer,
): void {
  const body = homeBody(config, prefix);
  // Without a prefix the portal has a host of its own, and `/` is its home only on that host.
  const constraints = prefix === '' ? { host: new URL(config.portalUrl).host } : undefined;
  routeEveryMethod(app, {
    method: ['GET'],
    url: '/',
    wrongMethod,
    constraints,
    handler: async (request, reply) => sendPage(reply, page(frameOf(request, prefix), 'Developer portal', body)),
  });
}

function homeBody(config: Config, prefix: string): string {
  const base = escapeHtml(config.publicUrl);
  const portal = escapeHtml(config.portalUrl);
  const api = `${base}/v${CURRENT_VERSION}`;
  return `<h1>Build on the Dog Registry API</h1>
<p class="lead">One HTTP API for dogs, their owners, veterinarians and food: JSON or XML, OAuth 2.0, and an open list
of dogs waiting for adoption. Its root is <code>${api}</code> (v${CURRENT_VERSION} is current; v1 stays available).</p>
<p><a class="btn" href="${prefix}/signup">Sign up</a> <a href="${prefix}/login">or log in</a></p>
<h2>Quickstart</h2>
<ol class="steps">
<li><strong>Sign up</strong> with <a href="${prefix}/signup">the form</a>, or from a terminal; the answer holds your
client id and secret (shown once):
<pre><code>curl -H 'Accept: application/json' -d email=you@example.com -d 'password=a long passphrase' \\
  -d appName=my-app ${portal}/signup</code></pre>
Keep the answer's <code>clientId</code> and <code>clientSecret</code> for the next steps:
<pre><code>CLIENT_ID='…the clientId…'
CLIENT_SECRET='…the clientSecret…'</code></pre></li>
<li><strong>Get an access token</strong> (valid an hour) with the client id and secret:
<pre><code>curl -u "$CLIENT_ID:$CLIENT_SECRET" -d grant_type=client_credentials ${base}/oauth2/token</code></pre>
and keep its <code>access_token</code>:
<pre><code>TOKEN='…the access_token…'</code></pre></li>
<li><strong>Make your first call</strong>: register a dog, then list your dogs.
<pre><code>curl -H "Authorization: Bearer $TOKEN" -d name=Rex ${api}/dogs
curl -H "Authorization: Bearer $TOKEN" ${api}/dogs</code></pre></li>
<li><strong>Read the open adoption list</strong>, which needs no token:
<pre><code>curl ${api}/adoptions</code></pre></li>
</ol>
<h2>Documentation</h2>
<div class="grid">
<div class="card"><h3><a href="${prefix}/reference">API reference</a></h3><p>Every operation, with its parameters
and answers. The OpenAPI 3.1 documents: <a href="${prefix}/openapi/v2.json">v2</a>, <a href="${prefix}/openapi/v1.json">v1</a>.</p></div>
<div class="card"><h3><a href="${prefix}/errors">Error codes</a></h3><p>What each <code>code</code> in an error
answer means and how to fix the request.</p></div>
<div class="card"><h3><a href="${prefix}/versions">Versions</a></h3><p>What v1 and v2 differ in, the deprecation
and sunset dates, and <a href="${prefix}/changelog">the changelog</a>.</p></div>
<div class="card"><h3><a href="${prefix}/dashboard">Dashboard</a></h3><p>Your apps and their client ids, once
logged in; from each app, its <a href="${prefix}/dashboard">request log and usage</a>.</p></div>
</div>`;
}
