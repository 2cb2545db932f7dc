/**
 * The audit trail (/app/audit-trail): GET /rest/secure/audit_trail (READ_USERS), server-paged, filtered by
 * actor, entity and date range, sorted. It is read-only by design: no call edits or deletes a row.
 */
import type { FastifyInstance } from 'fastify';
import { AuditQuerySchema } from '@portal/contract';
import { requireAuth } from '../auth/guard';
import type { Deps } from '../deps';
import { parseInput } from '../http/validate';
import { listAuditEvents } from '../services/audit';

export function registerAuditRoutes(app: FastifyInstance, deps: Deps): void {
  const temporal = { uiUrl: deps.cfg.TEMPORAL_UI_URL, namespace: deps.cfg.TEMPORAL_NAMESPACE };
  app.get('/audit_trail', async (req) => {
    requireAuth(req, 'READ_USERS');
    const query = parseInput(AuditQuerySchema, req.query);
    return listAuditEvents(deps.prisma, query, temporal);
  });
}
