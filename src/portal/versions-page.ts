// The portal's versions page at {portal}/versions: v1 and v2, the version policy, v1's sunset when one is set; the
// changelog is a page of its own (changelog.ts).
import type { FastifyInstance } from 'fastify';
import type { Config } from '../config.js';
import { deprecationHeaders } from '../http/deprecation.js';
import { routeEveryMethod, type WrongMethodAnswer } from '../http/route-every-method.js';
import { CURRENT_VERSION } from '../http/versions.js';
import { escapeHtml, page } from './html.js';
import { frameOf, sendPage } from './portal-context.js';

export function registerVersionsPage(
  app: FastifyInstance,
  config: Config,
  prefix: string,
  wrongMethod: WrongMethodAnswer,
): void {
  const body = versionsBody(config, prefix);
  routeEveryMethod(app, {
    method: ['GET'],
    url: '/versions',
    wrongMethod,
    handler: async (request, reply) => sendPage(reply, page(frameOf(request, prefix), 'API versions', body)),
  });
}

function versionsBody(config: Config, prefix: string): string {
  const base = escapeHtml(config.publicUrl);
  const headers = deprecationHeaders(config);
  const sunset = headers
    ? `<p><strong>v1 is retired on ${escapeHtml(config.v1Sunset ?? '')} (00:00 UTC).</strong> Until then it works as it always did, and
every v1 answer says so in three headers:</p>
<pre>Deprecation: ${escapeHtml(headers.deprecation)}
Sunset: ${escapeHtml(headers.sunset)}
Link: ${escapeHtml(headers.link)}</pre>
<p><code>Deprecation</code> (RFC 9745) is the moment v1 was deprecated, as <code>@</code> and a Unix time; <code>Sunset</code>
(RFC 8594) the moment it may stop answering; the link points to this page.</p>`
    : `<p>No retirement date for v1 is announced yet. When one is, every v1 answer carries <code>Deprecation</code>,
<code>Sunset</code> and a <code>Link</code> with <code>rel="deprecation"</code> to this page, at least six months ahead.</p>`;
  return `<h1>API versions</h1>
<p>The version is the first segment of every API path: <code>${base}/v${CURRENT_VERSION}/dogs</code>. It never comes from a header,
because a version changes how a client handles the answers. What changed in each release: <a href="${prefix}/changelog">the
changelog</a>.</p>
<div class="table-wrap"><table><thead><tr><th scope="col">version</th><th scope="col">status</th><th scope="col">a creation (POST, or <code>method=post</code>) answers</th></tr></thead><tbody>
<tr><td><code>v${CURRENT_VERSION}</code></td><td>current</td><td><code>201 Created</code>, with the new item's absolute URL in <code>Location</code></td></tr>
<tr><td><code>v1</code></td><td>earlier, deprecated since ${escapeHtml(config.v1Deprecated)}</td><td><code>200 OK</code>, no <code>Location</code></td></tr>
</tbody></table></div>
<p>That is the only difference: paths, parameters, envelopes (<code>{"dog": …}</code>, <code>&lt;dog&gt;…&lt;/dog&gt;</code>), error
codes and everything else are the same in both, served by the same code. The body of a creation is the same
<code>dog</code> envelope in both.</p>
<h2>v1's retirement</h2>
${sunset}
<h2>Policy</h2>
<ul>
<li>A version stays available for at least one client cycle (the time apps take to reach their users' devices):
at least six months and up to two years after its successor became current.</li>
<li>A new version comes only for a change that makes clients handle answers differently. Additions (new
fields, resources, parameters, error codes) come to the current versions without a new number.</li>
<li>Retirement is announced in the answers themselves: <code>Deprecation</code>, <code>Sunset</code> and a
<code>Link rel="deprecation"</code> header on every answer of the retiring version, errors included.</li>
</ul>
<h2>What to do as a client</h2>
<ol>
<li>Log or alert when an answer carries a <code>Sunset</code> header; it is the date to be done by.</li>
<li>Move to v${CURRENT_VERSION}: change the path prefix and accept <code>201</code> (and <code>Location</code>) where you
expected <code>200</code> on creation. Nothing else changes.</li>
<li>Test against v${CURRENT_VERSION}, ship, and retire your v1 calls before the sunset date.</li>
</ol>
<p>Reference: <a href="${prefix}/openapi/v${CURRENT_VERSION}.json">OpenAPI document of v${CURRENT_VERSION}</a>,
<a href="${prefix}/openapi/v1.json">of v1</a> (its operations are marked deprecated); <a href="${prefix}/errors">error codes</a>.</p>`;
}
