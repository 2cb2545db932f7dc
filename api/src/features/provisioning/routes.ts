/**
 * Provisioning's calls (issue 41; docs/api.md "A system's provisioning connection"), one plugin, registered
 * beside the configuration's: under /rest/secure/system_mgmt/system_access/{id}/provisioning a system's
 * connection (GET, PUT, DELETE), its 'Test connection', 'Re-sync this person', 'Reconcile now' and its reports
 * (page, one report, CSV); and a person's provisioned accounts under
 * /rest/secure/user_management/user/{id}/provisioning. Reading needs READ_USERS like the rest of the
 * configuration and the user detail; every change and action ADMIN. The base URL follows
 * SSO_ALLOW_LOOPBACK_HTTP (http to loopback only outside production; https always).
 */
import { Readable } from 'node:stream';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  IdParamsSchema,
  ProvisioningAccountSchema,
  ProvisioningConnectionSchema,
  ProvisioningReconciliationsQuerySchema,
  ProvisioningResyncBodySchema,
  ProvisioningRunParamsSchema,
  ProvisioningTestResultSchema,
  ReconciliationReportSchema,
  ReconciliationSummarySchema,
  provisioningBodySchema,
} from '@portal/contract';
import { requireAuth } from '../../auth/guard';
import type { Deps } from '../../deps';
import { EmptyObjectSchema, MessageSchema, NoBodySchema, SECURE_ERRORS, pageSchema } from '../../http/route-schemas';
import { reconcileNow, resyncPerson } from './actions';
import { deleteConnection, getConnection, saveConnection } from './connection';
import { differencesCsv, differencesFileName } from './csv';
import { listReconciliations, reconciliationOf, reconciliationReport } from './reports';
import { testConnection } from './test-connection';
import { userProvisioning } from './user-accounts';

const PATH = '/rest/secure/system_mgmt/system_access/:id/provisioning';

/** Reading: READ_USERS, as the configuration and the user detail. */
const READ = { permission: 'READ_USERS' } as const;
/** Changing or acting: ADMIN; destructive (the route walker runs it on throwaway records only). */
const CHANGE = { permission: 'ADMIN', destructive: true } as const;

/** The answers of a call: `ok` (200), 304 (nothing changed), 404 (unknown id) and the errors. */
const answers = (ok: z.ZodType) => ({ 200: ok, 304: z.null(), 404: MessageSchema, ...SECURE_ERRORS });

export const provisioningRoutes: FastifyPluginAsyncZod<{ deps: Deps }> = async (app, { deps }) => {
  const { prisma } = deps;
  const body = provisioningBodySchema({ allowLoopbackHttp: deps.cfg.SSO_ALLOW_LOOPBACK_HTTP });

  app.get(
    PATH,
    { config: READ, schema: { params: IdParamsSchema, response: answers(ProvisioningConnectionSchema.nullable()) } },
    async (req) => getConnection(prisma, req.params.id),
  );

  app.put(
    PATH,
    { config: CHANGE, schema: { params: IdParamsSchema, body, response: answers(ProvisioningConnectionSchema) } },
    async (req) => saveConnection(deps, requireAuth(req), req.params.id, req.body, req.log),
  );

  app.delete(
    PATH,
    { config: CHANGE, schema: { params: IdParamsSchema, response: answers(EmptyObjectSchema) } },
    async (req) => deleteConnection(deps, requireAuth(req), req.params.id, req.log),
  );

  app.post(
    `${PATH}/test`,
    {
      config: CHANGE,
      schema: { params: IdParamsSchema, body: NoBodySchema, response: answers(ProvisioningTestResultSchema) },
    },
    async (req) => testConnection(deps, requireAuth(req), req.params.id),
  );

  app.post(
    `${PATH}/resync`,
    {
      config: CHANGE,
      schema: { params: IdParamsSchema, body: ProvisioningResyncBodySchema, response: answers(EmptyObjectSchema) },
    },
    async (req) => resyncPerson(deps, requireAuth(req), req.params.id, req.body),
  );

  app.post(
    `${PATH}/reconcile`,
    {
      config: CHANGE,
      schema: {
        params: IdParamsSchema,
        body: NoBodySchema,
        response: { ...answers(ReconciliationSummarySchema), 503: MessageSchema },
      },
    },
    async (req) => reconcileNow(deps, requireAuth(req), req.params.id, req.log),
  );

  app.get(
    `${PATH}/reconciliations`,
    {
      config: READ,
      schema: {
        params: IdParamsSchema,
        querystring: ProvisioningReconciliationsQuerySchema,
        response: answers(pageSchema(ReconciliationSummarySchema)),
      },
    },
    async (req) => listReconciliations(prisma, req.params.id, req.query),
  );

  app.get(
    `${PATH}/reconciliations/:runId`,
    { config: READ, schema: { params: ProvisioningRunParamsSchema, response: answers(ReconciliationReportSchema) } },
    async (req) => reconciliationReport(prisma, req.params.id, req.params.runId),
  );

  app.get(
    `${PATH}/reconciliations/:runId/differences.csv`,
    {
      config: READ,
      schema: {
        params: ProvisioningRunParamsSchema,
        response: answers(z.string().describe('text/csv: every difference of the run, in the order found')),
      },
    },
    async (req, reply) => {
      const run = await reconciliationOf(prisma, req.params.id, req.params.runId);
      // Streamed: rows reach the browser while later ones are read (csv.ts).
      const csv = Readable.from(differencesCsv(prisma, run.id));
      return (
        reply
          .header('content-type', 'text/csv; charset=utf-8')
          .header('content-disposition', `attachment; filename="${differencesFileName(run.id)}"`)
          // A stream is piped as is (the 200 schema documents the body, Fastify serializes no stream).
          .send(csv as unknown as string)
      );
    },
  );

  app.get(
    '/rest/secure/user_management/user/:id/provisioning',
    { config: READ, schema: { params: IdParamsSchema, response: answers(z.array(ProvisioningAccountSchema)) } },
    async (req) => userProvisioning(prisma, req.params.id),
  );
};
