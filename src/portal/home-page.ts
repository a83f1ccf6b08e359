// The portal's home page at {portal}: where browsers and the dev./developer. hosts are sent.
import type { FastifyInstance } from 'fastify';
import type { Config } from '../config.js';
import { routeEveryMethod, type WrongMethodAnswer } from '../http/route-every-method.js';
import { CURRENT_VERSION, VERSIONS } from '../http/versions.js';
import { escapeHtml, page } from './html.js';

export function registerHomePage(
  app: FastifyInstance,
  config: Config,
  prefix: string,
  wrongMethod: WrongMethodAnswer,
): void {
  const html = page(
    'Developer portal',
    `<h1>Dog Registry — developer portal</h1>
<p>The Dog Registry API manages dogs, their owners, veterinarians and food. Its root is
<code>${escapeHtml(config.publicUrl)}/v${CURRENT_VERSION}</code> (v${CURRENT_VERSION} is current; v1 stays available).</p>
<h2>Reference</h2>
<ul>
${VERSIONS.map((version) => `<li><a href="${prefix}/openapi/v${version}.json">OpenAPI 3.1 document of v${version}</a></li>`).join('\n')}
<li><a href="${prefix}/errors">Error codes</a></li>
<li><a href="${prefix}/versions">Versions: v1 and v2, and the version policy</a></li>
</ul>
<h2>Get access</h2>
<ul>
<li><a href="${prefix}/signup">Sign up</a> for a client id and secret, then get a token from <code>${escapeHtml(config.publicUrl)}/oauth2/token</code> (client_credentials).</li>
</ul>`,
  );
  // Without a prefix the portal has a host of its own, and `/` is its home only on that host.
  const constraints = prefix === '' ? { host: new URL(config.portalUrl).host } : undefined;
  routeEveryMethod(app, {
    method: ['GET'],
    url: '/',
    wrongMethod,
    constraints,
    handler: async (_request, reply) => reply.type('text/html; charset=utf-8').send(html),
  });
}
