// The portal's error pages: /errors lists the catalogue, /errors/<code> explains one code (the more_info links).
import type { FastifyInstance } from 'fastify';
import type { Config } from '../config.js';
import { errorExamples } from '../error-examples.js';
import { catalogueEntries } from '../errors.js';
import { routeEveryMethod, type WrongMethodAnswer } from '../http/route-every-method.js';
import { exampleSection } from './error-example-html.js';
import { escapeHtml, page } from './html.js';
import { frameOf, sendPage } from './portal-context.js';

/** `prefix` is the portal's path, for links; routes are relative to the portal surface. */
export function registerErrorPages(
  app: FastifyInstance,
  config: Config,
  prefix: string,
  wrongMethod: WrongMethodAnswer,
): void {
  const index = `<h1>Error codes</h1>
<p>Every error of the API carries an integer <code>code</code> from this list, a plain-language <code>message</code>
and a <code>more_info</code> link to one of these pages. Codes never change meaning, and a retired code is never reused.</p>
<div class="table-wrap"><table><thead><tr><th scope="col">code</th><th scope="col">HTTP status</th><th scope="col">meaning</th></tr></thead><tbody>
${catalogueEntries()
  .map(
    (entry) =>
      `<tr><td><a ` +
      `href="${prefix}/errors/${entry.code}">${entry.code}</a></td><td>${entry.status}</td><td>${escapeHtml(entry.title)}</td></tr>`,
  )
  .join('\n')}
</tbody></table></div>`;

  routeEveryMethod(app, {
    url: '/errors',
    method: ['GET'],
    wrongMethod,
    handler: async (request, reply) => sendPage(reply, page(frameOf(request, prefix), 'Error codes', index)),
  });

  // Each code's body is the same for every request (the frame alone is per request): built once, here.
  const bodies = new Map(
    catalogueEntries().map((entry) => [
      String(entry.code),
      `<h1>Error ${entry.code}: ${escapeHtml(entry.title)}</h1>
<p>HTTP status: <strong>${entry.status}</strong> (or 200 with <code>response_code</code> "${entry.status}" when <code>suppress_response_codes=true</code>).</p>
<p>${escapeHtml(entry.explanation)}</p>
<p>${entry.retryable ? 'The same request may succeed if you retry it later.' : 'Retrying the same request gives the same error: change the request as the message says.'}</p>
${exampleSection(entry, errorExamples[entry.name], config)}
<p><a href="${prefix}/errors">All error codes</a></p>`,
    ]),
  );

  routeEveryMethod(app, {
    url: '/errors/:code',
    method: ['GET'],
    wrongMethod,
    handler: async (request, reply) => {
      const { code } = request.params as { code: string };
      const body = /^\d+$/.test(code) ? bodies.get(String(Number(code))) : undefined;
      if (body === undefined) {
        return sendPage(
          reply,
          page(
            frameOf(request, prefix),
            'Unknown error code',
            `<h1>Unknown error code</h1><p>The API has no error code ${escapeHtml(code)}. See <a ` +
              `href="${prefix}/errors">the list of codes</a>.</p>`,
          ),
          404,
        );
      }
      return sendPage(reply, page(frameOf(request, prefix), `Error ${Number(code)}`, body));
    },
  });
}
