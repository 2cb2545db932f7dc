/**
 * The audit trail (/app/audit-trail): GET /rest/secure/audit_trail (READ_USERS), server-paged, filtered by
 * actor, entity and date range, sorted. It is read-only by design: no call edits or deletes a row.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { AuditEventSchema, AuditQuerySchema } from '@portal/contract';
import type { Deps } from '../../deps';
import { SECURE_ERRORS, pageSchema } from '../../http/route-schemas';
import { listAuditEvents } from './list';
import { temporalUiOf } from '../../shared/views';

export const auditRoutes: FastifyPluginAsyncZod<{ deps: Deps }> = async (app, { deps }) => {
  const temporal = temporalUiOf(deps.cfg);
  app.get(
    '/rest/secure/audit_trail',
    {
      config: { permission: 'READ_USERS' },
      schema: { querystring: AuditQuerySchema, response: { 200: pageSchema(AuditEventSchema), ...SECURE_ERRORS } },
    },
    async (req) => listAuditEvents(deps.prisma, req.query, temporal),
  );
};
