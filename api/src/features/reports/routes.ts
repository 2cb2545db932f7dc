/**
 * Reports (001 §2.11, §7): GET /rest/secure/user_access_mod_request/report, READ_USERS (001 §6 "403 when the
 * user is not permitted"; the permission is the Administration menu's, since the report lists every user's
 * requests). Answers a CSV file named in its content-disposition; 422 fieldErrors for a bad query.
 */
import { Readable } from 'node:stream';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AccessReportQuerySchema, accessReportFileName } from '@portal/contract';
import type { Deps } from '../../deps';
import { SECURE_ERRORS } from '../../http/route-schemas';
import { accessReportCsv } from './report';

export const reportRoutes: FastifyPluginAsyncZod<{ deps: Deps }> = async (app, { deps }) => {
  app.get(
    '/rest/secure/user_access_mod_request/report',
    {
      config: { permission: 'READ_USERS' },
      schema: {
        querystring: AccessReportQuerySchema,
        response: { 200: z.string().describe('text/csv: one row per access-modification request'), ...SECURE_ERRORS },
      },
    },
    async (req, reply) => {
      // Streamed: rows reach the browser while later ones are read (report.ts).
      const csv = Readable.from(accessReportCsv(deps.prisma, req.query, deps.cfg.SIGNATURES === 'on'));
      return (
        reply
          .header('content-type', 'text/csv; charset=utf-8')
          .header('content-disposition', `attachment; filename="${accessReportFileName(req.query)}"`)
          // A stream is piped as is (the 200 schema documents the body, Fastify serializes no stream).
          .send(csv as unknown as string)
      );
    },
  );
};
