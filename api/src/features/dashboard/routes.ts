/**
 * The dashboard (000 §2 /app/dashboard, §6 "portal roles also control dashboard visibility", §7
 * Visualizations; issue 11 Dashboard), one feature plugin:
 * - GET /rest/secure/dashboard/summary (any signed-in user): the highest permission, what it grants, the
 *   sections the permissions show and the visualizations the user may open;
 * - GET /rest/secure/dashboard/queues (READ_USERS): open requests by kind, status and age;
 * - GET /rest/secure/dashboard/requests (USER): the user's open requests and latest decisions;
 * - GET /rest/secure/tableau/token and /tableau/visualization/{id} (USER, 000 §7): 404 when no Tableau server
 *   is configured (or the visualization is not the caller's to see), 503 when the server refuses or is down.
 * The two request reads are SQL over the queue's read model (sql.ts) on the API's pg pool.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  DASHBOARD_MESSAGES,
  DashboardQueuesSchema,
  DashboardRequestsSchema,
  DashboardSummarySchema,
  IdParamsSchema,
  PERMISSION_GRANTS,
  PERMISSIONS,
  TableauTokenQuerySchema,
  TableauTokenSchema,
  VisualizationSchema,
  hasAllPermissions,
  highestPermission,
  type DashboardQueues,
  type DashboardRequest,
  type DashboardRequests,
  type DashboardSummary,
  type TableauToken,
  type Visualization,
} from '@portal/contract';
import type { PrismaClient } from '@portal/db';
import { requireAuth } from '../../auth/guard';
import type { Deps } from '../../deps';
import { notFound, unavailable } from '../../http/errors';
import { MessageSchema, SECURE_ERRORS } from '../../http/route-schemas';
import { queryRows } from '../../shared/sql';
import { OwnRequestRowSchema, QueueGroupRowSchema, ownRequestsSql, queueGroupsSql } from './sql';
import {
  TableauUnavailableError,
  requestTrustedTicket,
  tableauSettings,
  visibleVisualizations,
  visualizationOf,
} from './tableau';

/** Open requests by kind, status and age. @throws ZodError on rows of an unexpected shape (500). */
export async function dashboardQueues(prisma: PrismaClient): Promise<DashboardQueues> {
  const groups = z.array(QueueGroupRowSchema).parse(await queryRows(prisma, queueGroupsSql()));
  return {
    total: groups.reduce((sum, g) => sum + g.count, 0),
    groups: groups.map((g) => ({ ...g, oldest: g.oldest.toISOString() })),
  };
}

/** The user's open requests and latest decisions. @throws ZodError on rows of an unexpected shape (500). */
export async function dashboardRequests(prisma: PrismaClient, userId: number): Promise<DashboardRequests> {
  const rows = z.array(OwnRequestRowSchema).parse(await queryRows(prisma, ownRequestsSql(userId)));
  const wire = (r: (typeof rows)[number]): DashboardRequest => ({
    userRequestType: r.userRequestType,
    id: r.id,
    requestType: r.requestType,
    requestStatus: r.requestStatus,
    dateSubmitted: r.sysdat.toISOString(),
    lastModified: r.dchng.toISOString(),
    subjectName: `${r.firstName} ${r.lastName}`.trim(),
    ...(r.approvalStage !== null && r.approvalGroup !== null
      ? { openStage: { stage: r.approvalStage, stages: r.approvalStages ?? r.approvalStage, group: r.approvalGroup } }
      : {}),
  });
  return { open: rows.filter((r) => !r.resolved).map(wire), decisions: rows.filter((r) => r.resolved).map(wire) };
}

export const dashboardRoutes: FastifyPluginAsyncZod<{ deps: Deps }> = async (app, { deps }) => {
  const tableau = tableauSettings(deps.cfg);
  const failures = { 404: MessageSchema, 503: MessageSchema, ...SECURE_ERRORS };

  app.get(
    '/rest/secure/dashboard/summary',
    { schema: { response: { 200: DashboardSummarySchema, ...SECURE_ERRORS } } },
    async (req): Promise<DashboardSummary> => {
      const { permissions } = requireAuth(req);
      const highest = highestPermission(permissions);
      return {
        highestPermission: highest,
        permissions,
        // What the highest permission grants, then what it carries with it (000 §6 READ_USERS gives USER...).
        grants: PERMISSIONS.filter((p) => permissions.includes(p)).map((p) => PERMISSION_GRANTS[p]),
        sections: {
          ownRequests: hasAllPermissions(permissions, ['USER']),
          queues: hasAllPermissions(permissions, ['READ_USERS']),
        },
        visualizationIds: visibleVisualizations(tableau, permissions).map((v) => v.id),
      };
    },
  );

  app.get(
    '/rest/secure/dashboard/queues',
    { config: { permission: 'READ_USERS' }, schema: { response: { 200: DashboardQueuesSchema, ...SECURE_ERRORS } } },
    async () => dashboardQueues(deps.prisma),
  );

  app.get(
    '/rest/secure/dashboard/requests',
    { config: { permission: 'USER' }, schema: { response: { 200: DashboardRequestsSchema, ...SECURE_ERRORS } } },
    async (req) => dashboardRequests(deps.prisma, requireAuth(req).userId),
  );

  app.get(
    '/rest/secure/tableau/visualization/:id',
    {
      config: { permission: 'USER' },
      schema: { params: IdParamsSchema, response: { 200: VisualizationSchema, ...failures } },
    },
    async (req): Promise<Visualization> => {
      const found = visibleVisualizations(tableau, requireAuth(req).permissions).find((v) => v.id === req.params.id);
      if (!found) throw notFound(DASHBOARD_MESSAGES.visualizationNotFound);
      return visualizationOf(found);
    },
  );

  app.get(
    '/rest/secure/tableau/token',
    {
      config: { permission: 'USER' },
      schema: { querystring: TableauTokenQuerySchema, response: { 200: TableauTokenSchema, ...failures } },
    },
    async (req): Promise<TableauToken> => {
      if (!tableau) throw notFound(DASHBOARD_MESSAGES.tableauUnavailable);
      const auth = requireAuth(req);
      const targetSite = req.query.targetSite ?? tableau.defaultSite;
      try {
        const ticket = await requestTrustedTicket(tableau, tableau.ticketUser ?? auth.username, targetSite);
        return {
          tableauToken: ticket,
          tableauInternalIp: new URL(tableau.serverUrl).host,
          tableauExternalUrl: tableau.externalUrl,
          targetSite,
        };
      } catch (err) {
        if (err instanceof TableauUnavailableError) {
          req.log.warn({ err }, 'tableau trusted ticket failed');
          throw unavailable(DASHBOARD_MESSAGES.tableauUnavailable);
        }
        throw err;
      }
    },
  );
};
