// The API reference at {portal}/reference (the current version) and {portal}/reference/v<N>: each version's OpenAPI
// document, the one {portal}/openapi/v<N>.json serves, rendered as HTML on the server (SPEC §12: it works without
// JavaScript), with a "try it" form per operation that the page's one small script sends.
import type { FastifyInstance } from 'fastify';
import type { Config } from '../config.js';
import { routeEveryMethod, type WrongMethodAnswer } from '../http/route-every-method.js';
import { CURRENT_VERSION, VERSIONS, type Version } from '../http/versions.js';
import { servedDocument } from '../openapi/build-document.js';
import type { JsonObject } from '../openapi/json-schema.js';
import { escapeHtml, homeOf, page } from './html.js';
import { frameOf, sendPage } from './portal-context.js';
import { REFERENCE_ASSET_VERSION, registerReferenceAssets } from './reference-assets.js';
import type { OperationContext } from './reference-examples.js';
import { referenceModel, type ReferenceModel } from './reference-model.js';
import { methodBadge, operationHtml, proseHtml } from './reference-operation.js';
import { headersHtml, preflightsHtml, schemasHtml, sharedAnswersHtml } from './reference-sections.js';
import { TOKEN_FIELD_ID } from './reference-try-it.js';
import { contentSecurityPolicy } from './security-headers.js';

export function registerReferencePage(
  app: FastifyInstance,
  config: Config,
  prefix: string,
  wrongMethod: WrongMethodAnswer,
): void {
  // The portal's policy (its hook sets it), with the API's origin as a place "try it" forms may go without JavaScript.
  const csp = contentSecurityPolicy(config, { formsToApi: true });
  // Drawn on first use, then kept, from the document /openapi/v<N>.json serves (built on first use too).
  const bodies = new Map<Version, string>();
  const bodyOf = (version: Version) => {
    let body = bodies.get(version);
    if (body === undefined)
      bodies.set(version, (body = referenceBody(servedDocument(config, version), version, prefix)));
    return body;
  };
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
            page(frameOf(request, prefix), `API reference v${version}`, bodyOf(version)),
          ),
      });
    }
  }
  registerReferenceAssets(app, wrongMethod);
}

export function referenceBody(document: JsonObject, version: Version, prefix: string): string {
  const info = (document.info ?? {}) as JsonObject;
  const server = String(((document.servers as JsonObject[] | undefined) ?? [])[0]?.url ?? '');
  const model = referenceModel(document);
  const context: OperationContext = { document, server, prefix, commonHeaders: model.commonHeaders };
  const assets = `${prefix}/assets/reference`;
  return `<link rel="stylesheet" href="${assets}.css?v=${REFERENCE_ASSET_VERSION}">
<div class="ref-head">
<h1>API reference <span class="muted">v${version}${version === CURRENT_VERSION ? ', current' : ', deprecated'}</span></h1>
${versionLinks(version, prefix)}
${version === CURRENT_VERSION ? '' : `<p class="alert">v${version} is deprecated: new clients should use <a href="${prefix}/reference/v${CURRENT_VERSION}">v${CURRENT_VERSION}</a>. <a href="${prefix}/versions">What differs</a>.</p>`}
</div>
<div class="reference">
${tocHtml(model, version)}
<div class="ref-content">
<p class="lead">${escapeHtml(String(info.summary ?? ''))}</p>
<p>Every path below is relative to <code>${escapeHtml(server)}</code>. This page is drawn from the
<a href="${prefix}/openapi/v${version}.json">OpenAPI document of v${version}</a> (JSON, for code generators and other
viewers); the <a href="${prefix}/errors">error codes</a> explain each <code>code</code> of an error answer.</p>
<details class="card overview"><summary>About v${version}: formats, HEAD, tokens, errors</summary>
${proseHtml(String(info.description ?? ''))}
</details>
<section class="card token-card" aria-labelledby="token-title">
<h2 id="token-title">Try it with your token</h2>
<div class="field"><label for="${TOKEN_FIELD_ID}">Access token <span class="hint">every "Try it" form on this page sends it as <code>Authorization: Bearer …</code>; it stays in this page</span></label>
<input id="${TOKEN_FIELD_ID}" type="text" autocomplete="off" spellcheck="false" placeholder="paste the access_token of POST /oauth2/token"></div>
<p class="hint">No token yet? <a href="${prefix}/signup">Sign up</a>, then get one as the <a href="${homeOf(prefix)}">quickstart</a> shows.
The requests are real: they read and change your account's data.</p>
</section>
${model.groups.map((group) => groupHtml(context, group)).join('\n')}
${preflightsHtml(context, model)}
${sharedAnswersHtml(context, model)}
${headersHtml(context)}
${schemasHtml(context)}
</div>
</div>
<script src="${assets}.js?v=${REFERENCE_ASSET_VERSION}" defer></script>`;
}

function versionLinks(version: Version, prefix: string): string {
  const links = VERSIONS.map((other) => {
    const label = `v${other}${other === CURRENT_VERSION ? ' (current)' : ' (deprecated)'}`;
    return other === version
      ? `<a href="${prefix}/reference/v${other}" aria-current="page">${label}</a>`
      : `<a href="${prefix}/reference/v${other}">${label}</a>`;
  });
  const documents = VERSIONS.map((other) => `<a href="${prefix}/openapi/v${other}.json">v${other}.json</a>`);
  return `<nav class="versions" aria-label="Versions"><span>Version:</span> ${links.join(' ')} <span class="muted">· OpenAPI documents:</span> ${documents.join(' ')}</nav>`;
}

function tocHtml(model: ReferenceModel, version: Version): string {
  const groups = model.groups.map(
    (group) =>
      `<li><a class="toc-tag" href="#tag-${escapeHtml(group.tag)}">${escapeHtml(group.tag)}</a><ul>${group.operations
        .map(
          (view) =>
            `<li><a href="#${escapeHtml(view.id)}">${methodBadge(view.method)} <span class="toc-path">${escapeHtml(view.path).replace(/\//g, '/<wbr>')}</span></a></li>`,
        )
        .join('')}</ul></li>`,
  );
  const extra = [
    model.preflights.length > 0 ? '<li><a class="toc-tag" href="#preflights">CORS preflights</a></li>' : '',
    '<li><a class="toc-tag" href="#answers">Common answers</a></li>',
    '<li><a class="toc-tag" href="#headers">Answer headers</a></li>',
    '<li><a class="toc-tag" href="#schemas">Schemas</a></li>',
  ];
  // Open, so that it is there without JavaScript; the script closes it on a narrow screen, where it would come first.
  return `<nav class="ref-toc" aria-label="Operations of v${version}"><details open>
<summary class="toc-title">Operations</summary>
<ul>${[...groups, ...extra].join('\n')}</ul>
</details></nav>`;
}

function groupHtml(context: OperationContext, group: ReferenceModel['groups'][number]): string {
  return `<section class="tag-group" id="tag-${escapeHtml(group.tag)}" aria-labelledby="tag-${escapeHtml(group.tag)}-title">
<h2 id="tag-${escapeHtml(group.tag)}-title">${escapeHtml(group.tag)}</h2>
${proseHtml(group.description)}
${group.operations.map((view) => operationHtml(context, view)).join('\n')}
</section>`;
}
