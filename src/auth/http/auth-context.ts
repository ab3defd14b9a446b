import type { HttpContext } from '../../http/context.js';
import type { AuthService } from '../auth-service.js';
import type { Principal } from '../principal.js';

/** The context of the auth routes and the guard: the HTTP context plus the auth service. */
export interface AuthContext extends HttpContext {
  /** Bearer tokens, API keys, the OAuth token endpoint's state, rate limits. */
  auth: AuthService;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The verified credential the request carries, when there is one (set by the guard). */
    principal?: Principal;
  }
}
