// The asterisk-form request target (`OPTIONS * HTTP/1.1`, RFC 9112 §3.2.4): a question about the server, not a path.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ApiError } from '../errors.js';

/** Every method some path of the service offers. */
const SERVER_METHODS = 'GET, HEAD, POST, PUT, DELETE, OPTIONS';

/**
 * Answers a request whose target is `*`, or gives the error to answer it with: OPTIONS learns the methods the service knows (200,
 * Allow); any other method is a 400, since `*` names no resource.
 */
export function answerAsteriskForm(request: FastifyRequest, reply: FastifyReply): ApiError | 'answered' {
  if (request.method === 'OPTIONS') {
    reply.code(200).header('allow', SERVER_METHODS).header('cache-control', 'no-store').send();
    return 'answered';
  }
  return new ApiError(
    'requestTargetAsterisk',
    `The request target * names no resource; HTTP allows it only with OPTIONS. Send ${request.method} to a path, ` +
      'such as /v2/dogs.',
  );
}
