import type { FastifyReply, FastifyRequest } from 'fastify';
import { escapeHtml } from '../ui/page.js';
import { negotiate } from './negotiate.js';
import { addVary } from './respond.js';
import { isProblemCode, PROBLEMS, sendProblem } from './problems.js';

/** `GET /problems/{code}`: the page a problem's `type` URL points at. */
export function problemDoc() {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    const { code } = request.params as { code: string };
    if (!isProblemCode(code)) return sendProblem(request, reply, 'not-found', `no problem type "${code}"; see / for the API`);
    const p = PROBLEMS[code];
    addVary(reply, 'Accept');
    if (negotiate(request) === 'html') {
      return reply.type('text/html; charset=utf-8').send(
        `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(p.title)}</title></head>` +
          `<body><h1>${p.status} ${escapeHtml(p.title)}</h1><p><code>${code}</code></p><p>${escapeHtml(p.description)}</p></body></html>`,
      );
    }
    return reply.type('application/json').send({ code, status: p.status, title: p.title, description: p.description });
  };
}
