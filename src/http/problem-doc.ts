import type { FastifyReply, FastifyRequest } from 'fastify';
import { renderProblemTypePage } from '../ui/problem-page.js';
import { sendHtml } from './html-response.js';
import { negotiate } from './negotiate.js';
import { addVary } from './vary.js';
import { isProblemCode, PROBLEMS, sendProblem } from './problems.js';

/** `GET /problems/{code}`: the page a problem's `type` URL points at. */
export function problemDoc() {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    const { code } = request.params as { code: string };
    if (!isProblemCode(code)) return sendProblem(request, reply, 'not-found', `no problem type "${code}"; see / for the API`);
    const p = PROBLEMS[code];
    addVary(reply, 'Accept');
    if (negotiate(request) === 'html') {
      return sendHtml(reply, renderProblemTypePage(code, p));
    }
    return reply.type('application/json').send({ code, status: p.status, title: p.title, description: p.description });
  };
}
