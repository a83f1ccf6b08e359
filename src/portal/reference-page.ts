// The API reference at {portal}/reference (the current version) and {portal}/reference/v<N>: each version's OpenAPI
// document drawn by Swagger UI, served from the portal, with "try it" against {base}; a list of links without JavaScript.
import type { FastifyInstance } from 'fastify';
import type { Config } from '../config.js';
import { routeEveryMethod, type WrongMethodAnswer } from '../http/route-every-method.js';
import { CURRENT_VERSION, VERSIONS, type Version } from '../http/versions.js';
import { registerReferenceAssets } from './reference-assets.js';
import { escapeHtml, page, type Frame } from './html.js';
import { frameOf, sendPage } from './portal-context.js';
import { contentSecurityPolicy } from './security-headers.js';

export function registerReferencePage(
  app: FastifyInstance,
  config: Config,
  prefix: string,
  wrongMethod: WrongMethodAnswer,
): void {
  // The portal's policy (set by its hook), with the style attributes Swagger UI sets as it draws (measured in the
  // browser tests): no inline script, no eval; its icons are data: images, which the portal's policy allows.
  const csp = contentSecurityPolicy(config, { styleAttributes: true });
  for (const version of VERSIONS) {
    const urls = version === CURRENT_VERSION ? ['/reference', `/reference/v${version}`] : [`/reference/v${version}`];
    for (const url of urls) {
      routeEveryMethod(app, {
        url,
        method: ['GET'],
        wrongMethod,
        handler: async (request, reply) =>
          sendPage(
            reply.header('content-security-policy', csp),
            referencePage(config, frameOf(request, prefix), version),
          ),
      });
    }
  }
  registerReferenceAssets(app, wrongMethod);
}

function referencePage(config: Config, frame: Frame, version: Version): string {
  const { prefix } = frame;
  const documentUrl = `${prefix}/openapi/v${version}.json`;
  const others = VERSIONS.map((other) =>
    other === version
      ? `<strong aria-current="page">v${other}</strong>`
      : `<a href="${prefix}/reference/v${other}">v${other}</a>`,
  ).join(' · ');
  return page(
    frame,
    `API reference v${version}`,
    `<link rel="preload" href="${documentUrl}" as="fetch" crossorigin>
<link rel="stylesheet" href="${prefix}/assets/swagger-ui/swagger-ui.css">
<link rel="stylesheet" href="${prefix}/assets/reference.css">
<h1>API reference, v${version}${version === CURRENT_VERSION ? ' (current)' : ' (deprecated)'}</h1>
<div class="reference-intro">
<p>Versions: ${others}. Every operation of <code>${escapeHtml(config.publicUrl)}/v${version}</code>, drawn from its
<a href="${documentUrl}">OpenAPI 3.1 document</a>. To try one: <strong>Authorize</strong> with the access token you got
from <code>${escapeHtml(config.publicUrl)}/oauth2/token</code> (or with your client id and secret), open the operation,
then <strong>Try it out</strong> and <strong>Execute</strong>: it sends a real request to the API, on your account's data.
Each operation is listed once: every path also answers with a <code>.json</code> or <code>.xml</code> suffix and to CORS
preflights (<code>OPTIONS</code>), which the document lists too.</p>
<noscript><p>The interactive reference needs JavaScript. Without it, read the
${VERSIONS.map((other) => `<a href="${prefix}/openapi/v${other}.json">OpenAPI document of v${other}</a>`).join(', ')}
(JSON, for any OpenAPI viewer or code generator), the <a href="${prefix}/errors">error codes</a> with their causes and fixes,
and <a href="${prefix}/versions">what differs between versions</a>.</p></noscript>
</div>
<div id="swagger-ui" data-document="${documentUrl}"></div>
<script src="${prefix}/assets/swagger-ui/swagger-ui-bundle.js" defer></script>
<script src="${prefix}/assets/reference.js" defer></script>`,
  );
}
