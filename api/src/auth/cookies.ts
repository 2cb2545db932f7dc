/**
 * The session cookie (000 §3, §7): httpOnly, SameSite=Strict, path /, Secure when COOKIE_SECURE is set or
 * the request came over TLS (directly or through a proxy: trustProxy). No Max-Age: it lives as long as the
 * browser does, and the server alone decides when the session has expired (sliding, 000 §4).
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { CONSTANTS } from '@portal/contract';
import type { Deps } from '../deps';

function options(deps: Deps, req: FastifyRequest) {
  return {
    path: '/',
    httpOnly: true,
    sameSite: 'strict' as const,
    secure: deps.cfg.COOKIE_SECURE || req.protocol === 'https',
  };
}

export function setSessionCookie(deps: Deps, req: FastifyRequest, reply: FastifyReply, token: string): void {
  reply.setCookie(CONSTANTS.sessionCookie, token, options(deps, req));
}

export function clearSessionCookie(deps: Deps, req: FastifyRequest, reply: FastifyReply): void {
  reply.clearCookie(CONSTANTS.sessionCookie, options(deps, req));
}
