/**
 * Audit Integrity (/app/audit-trail/integrity; contract/src/audit-integrity.ts), permission ADMIN on both (403
 * otherwise, before the input is read):
 * - GET  /rest/secure/audit_integrity: the last verification, whether one runs, the newest seal and the rows
 *   awaiting theirs (integrity.ts);
 * - POST /rest/secure/audit_integrity/verify: starts the verification workflow (or joins the one running),
 *   202 `{ running: true }`; 503 when Temporal does not answer.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { AuditIntegritySchema, AuditVerifyStartedSchema } from '@portal/contract';
import { requireAuth } from '../../auth/guard';
import type { Deps } from '../../deps';
import { MessageSchema, NoBodySchema, SECURE_ERRORS } from '../../http/route-schemas';
import { loadAuditIntegrity, startVerification } from './integrity';

const BASE = '/rest/secure/audit_integrity';

export const auditIntegrityRoutes: FastifyPluginAsyncZod<{ deps: Deps }> = async (app, { deps }) => {
  app.get(
    BASE,
    {
      config: { permission: 'ADMIN' },
      schema: { response: { 200: AuditIntegritySchema, ...SECURE_ERRORS } },
    },
    async () => loadAuditIntegrity(deps),
  );

  app.post(
    `${BASE}/verify`,
    {
      // Starts work (a verification that writes its AUDIT_VERIFIED row).
      config: { permission: 'ADMIN', destructive: true },
      schema: { body: NoBodySchema, response: { 202: AuditVerifyStartedSchema, 503: MessageSchema, ...SECURE_ERRORS } },
    },
    async (req, reply) => {
      const started = await startVerification(deps, requireAuth(req));
      return reply.code(202).send(started);
    },
  );
};
