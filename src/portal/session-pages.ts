// Pages shared by every form that acts on a session: the refusal of a form without its CSRF token.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { homeOf, page } from './html.js';
import { frameOf, sendPage } from './portal-context.js';

/** SPEC §12: a form posted without a valid CSRF token answers 403 and changes nothing. */
export function csrfRefusedPage(request: FastifyRequest, reply: FastifyReply, prefix: string): FastifyReply {
  reply.header('cache-control', 'no-store');
  return sendPage(
    reply,
    page(
      frameOf(request, prefix),
      'Form refused',
      `<div class="card narrow">
<h1>This form was refused</h1>
<p class="alert" role="alert">The form did not carry this session's security token, so nothing was changed. This
happens when a form is older than your latest login or was sent from another site.</p>
<p>Go back, reload the page and send the form again, or go to <a href="${homeOf(prefix)}">the home page</a>.</p>
</div>`,
    ),
    403,
  );
}
