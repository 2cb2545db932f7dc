/**
 * The check every signed action makes (docs/decisions.md "Electronic signatures"): with SIGNATURES=on, the call
 * must carry in SIGNATURE_HEADER an unused, unexpired ticket of the signed-in person, issued for one of the
 * actions this call may be signed as and for exactly this call (method, path, body: the digest is computed again
 * here from what arrived). The ticket is not taken here: the writer of the decision takes it in the decision's
 * own transaction (`takeSignatureTicket`), so a refused or rolled-back decision leaves it unused.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { SIGNATURE_ERRORS, SIGNATURE_HEADER, type SignatureAction, type SignatureRef } from '@portal/contract';
import { decisionDigest, ticketHash } from '@portal/db';
import type { Deps } from '../deps';
import { unprocessable } from '../http/errors';
import type { AuthContext } from './guard';

/** The bodies of signed calls as they arrived, before the route's schema trimmed or stripped anything. */
const arrived = new WeakMap<FastifyRequest, unknown>();

/**
 * Keeps the body of every call carrying SIGNATURE_HEADER as it arrived (JSON-parsed, before validation): the
 * browser signed that body, and the route's schema may return a transformed copy (trimmed text, defaults).
 */
export function keepSignedBodies(app: FastifyInstance): void {
  app.addHook('preValidation', async (req) => {
    if (req.headers[SIGNATURE_HEADER] !== undefined) arrived.set(req, req.body ?? null);
  });
}

/** The call as signed: its method, its path without the query, its body as it arrived. */
const decisionOf = (req: FastifyRequest) => ({
  method: req.method.toUpperCase() as 'POST',
  path: req.url.split('?', 1)[0]!,
  body: arrived.has(req) ? arrived.get(req) : (req.body ?? null),
});

/**
 * @param actions what this call may be signed as (e.g. ['REQUEST_APPROVAL'] for a save resolving APPROVED);
 *   empty when this call needs no signature (then the header is ignored).
 * @param opts.meaning the one meaning the ticket must carry, when the call fixes it (a stage decision's names its
 *   stage: docs/decisions.md "Approval policies"); otherwise any meaning the ticket was issued with.
 * @returns the ticket's reference for the decision's writer, or undefined when signatures are off or the call
 *   needs none.
 * @throws HttpError 422 globalErrors [SIGNATURE_REQUIRED] without a ticket, [SIGNATURE_INVALID] for a ticket
 *   that is unknown, used, expired, another person's, or for another action, meaning or call.
 */
export async function signatureFor(
  deps: Deps,
  req: FastifyRequest,
  auth: AuthContext,
  actions: readonly SignatureAction[],
  opts: { meaning?: string } = {},
): Promise<SignatureRef | undefined> {
  if (deps.cfg.SIGNATURES !== 'on' || actions.length === 0) return undefined;
  const header = req.headers[SIGNATURE_HEADER];
  const token = Array.isArray(header) ? header[0] : header;
  if (!token) throw unprocessable({}, [SIGNATURE_ERRORS.required]);
  const ticket = await deps.prisma.signatureTicket.findUnique({ where: { tokenHash: ticketHash(token) } });
  const fits =
    ticket !== null &&
    ticket.signerUserId === auth.userId &&
    ticket.usedAt === null &&
    ticket.expiresAt > new Date() &&
    (actions as readonly string[]).includes(ticket.action) &&
    (opts.meaning === undefined || ticket.meaning === opts.meaning) &&
    ticket.decisionDigest === decisionDigest(ticket.action as SignatureAction, decisionOf(req));
  if (!fits) throw unprocessable({}, [SIGNATURE_ERRORS.invalid]);
  return { ticketId: ticket.id };
}
