/**
 * ADMIN's routes of access review campaigns (issue 25; contract/src/access-reviews.ts), permission ADMIN (403
 * otherwise, before the input is read):
 * - GET  /rest/secure/system_mgmt/access_reviews: a page of campaigns, newest first, with their progress;
 * - POST /rest/secure/system_mgmt/access_reviews: start a one-off campaign (start.ts);
 * - GET  .../access_reviews/{id}: the campaign, its decisions per reviewer and undecided items per pool;
 * - POST .../access_reviews/{id}/close, /cancel: the workflow's update (control.ts);
 * - GET  .../access_reviews/{id}/decisions.csv: every item's decision and outcome (csv.ts), streamed.
 */
import { Readable } from 'node:stream';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  ACCESS_REVIEW_MESSAGES,
  AccessReviewCampaignDetailSchema,
  AccessReviewCampaignSchema,
  CreateAccessReviewBodySchema,
  IdParamsSchema,
  queryIntSchema,
} from '@portal/contract';
import { requireAuth } from '../../auth/guard';
import type { Deps } from '../../deps';
import { notFound } from '../../http/errors';
import { MessageSchema, NoBodySchema, SECURE_ERRORS, pageSchema } from '../../http/route-schemas';
import { temporalUiOf } from '../../shared/views';
import { signatureFor } from '../../auth/signature-guard';
import { campaignDetail, listCampaigns } from './campaigns';
import { controlCampaign } from './control';
import { campaignDecisionsCsv, decisionsFileName } from './csv';
import { startCampaign } from './start';

const BASE = '/rest/secure/system_mgmt/access_reviews';

/** The page query of ADMIN's lists of campaigns and recurring reviews. */
export const AdminPageQuerySchema = z.object({
  page: queryIntSchema(1, 1_000_000, 1),
  size: queryIntSchema(1, 200, 25),
});

export const accessReviewAdminRoutes: FastifyPluginAsyncZod<{ deps: Deps }> = async (app, { deps }) => {
  const { prisma } = deps;
  const ui = temporalUiOf(deps.cfg);

  app.get(
    BASE,
    {
      config: { permission: 'ADMIN' },
      schema: {
        querystring: AdminPageQuerySchema,
        response: { 200: pageSchema(AccessReviewCampaignSchema), ...SECURE_ERRORS },
      },
    },
    async (req) => listCampaigns(prisma, req.query, ui),
  );

  app.post(
    BASE,
    {
      config: { permission: 'ADMIN', destructive: true },
      schema: {
        body: CreateAccessReviewBodySchema,
        response: { 200: AccessReviewCampaignSchema, 503: MessageSchema, ...SECURE_ERRORS },
      },
    },
    async (req) => startCampaign(deps, requireAuth(req), req.body),
  );

  app.get(
    `${BASE}/:id`,
    {
      config: { permission: 'ADMIN' },
      schema: {
        params: IdParamsSchema,
        response: { 200: AccessReviewCampaignDetailSchema, 404: MessageSchema, ...SECURE_ERRORS },
      },
    },
    async (req) => campaignDetail(prisma, req.params.id, ui),
  );

  for (const action of ['close', 'cancel'] as const) {
    app.post(
      `${BASE}/:id/${action}`,
      {
        config: { permission: 'ADMIN', destructive: true },
        schema: {
          params: IdParamsSchema,
          body: NoBodySchema,
          response: { 200: AccessReviewCampaignSchema, 404: MessageSchema, 503: MessageSchema, ...SECURE_ERRORS },
        },
      },
      async (req) => {
        const auth = requireAuth(req);
        const signature = await signatureFor(deps, req, auth, action === 'close' ? ['CAMPAIGN_CLOSE'] : []);
        return controlCampaign(deps, auth, req.params.id, action, signature);
      },
    );
  }

  app.get(
    `${BASE}/:id/decisions.csv`,
    {
      config: { permission: 'ADMIN' },
      schema: {
        params: IdParamsSchema,
        response: {
          200: z.string().describe('text/csv: one row per review item, its decision and outcome'),
          404: MessageSchema,
          ...SECURE_ERRORS,
        },
      },
    },
    async (req, reply) => {
      const { id } = req.params;
      if (!(await prisma.accessReviewCampaign.findUnique({ where: { id }, select: { id: true } }))) {
        throw notFound(ACCESS_REVIEW_MESSAGES.loadCampaign);
      }
      // Streamed: rows reach the browser while later ones are read (csv.ts).
      const csv = Readable.from(campaignDecisionsCsv(prisma, id));
      return (
        reply
          .header('content-type', 'text/csv; charset=utf-8')
          .header('content-disposition', `attachment; filename="${decisionsFileName(id)}"`)
          // A stream is piped as is (the 200 schema documents the body, Fastify serializes no stream).
          .send(csv as unknown as string)
      );
    },
  );
};
