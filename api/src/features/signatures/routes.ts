/**
 * The signing calls (docs/decisions.md "Electronic signatures"), beside the spec's (000 §7 has none): any
 * signed-in person asks for a ticket for a decision they are about to send; the decision's own route checks
 * the permission the spec names for it and the ticket (auth/signature-guard.ts).
 * - POST SIGNATURE_TICKET_PATH: the password again (and the username at a session's first signature), or a
 *   passkey's assertion;
 * - POST SIGNATURE_PASSKEY_OPTIONS_PATH: a passkey challenge bound to the decision and meaning.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  PasskeyOptionsAnswerSchema,
  SIGNATURE_PASSKEY_OPTIONS_PATH,
  SIGNATURE_TICKET_PATH,
  SignaturePasskeyOptionsBodySchema,
  SignatureTicketBodySchema,
  SignatureTicketSchema,
} from '@portal/contract';
import { requireAuth } from '../../auth/guard';
import type { Deps } from '../../deps';
import { MessageSchema, SECURE_ERRORS } from '../../http/route-schemas';
import { issueTicket, passkeySignatureOptions } from './tickets';

export const signatureRoutes: FastifyPluginAsyncZod<{ deps: Deps }> = async (app, { deps }) => {
  app.post(
    SIGNATURE_TICKET_PATH,
    {
      config: { destructive: true },
      schema: {
        body: SignatureTicketBodySchema,
        response: { 200: SignatureTicketSchema, 503: MessageSchema, ...SECURE_ERRORS },
      },
    },
    async (req) => issueTicket(deps, requireAuth(req), req.body),
  );

  app.post(
    SIGNATURE_PASSKEY_OPTIONS_PATH,
    {
      config: { destructive: true },
      schema: {
        body: SignaturePasskeyOptionsBodySchema,
        response: { 200: PasskeyOptionsAnswerSchema, ...SECURE_ERRORS },
      },
    },
    async (req) => passkeySignatureOptions(deps, requireAuth(req), req.body),
  );
};
