/**
 * The user manual (issue 23; 000 §2 Routes 'User Manual (PDF)'), one feature plugin:
 * GET /manual/user-manual.pdf answers the PDF built from docs/manual (scripts/src/manual/build-pdf.ts) at
 * USER_MANUAL_PDF, inline, as application/pdf. Public: the manual holds nothing but the product's own screens
 * with demo data, and its first chapters are for people who cannot sign in yet (signing in, registering, a
 * forgotten password); a plain link in a new tab could not send the XSRF header of /rest/secure anyway. Not
 * under /rest: it is a document, not a call of the API (docs/api.md). 404 with a plain sentence when the PDF
 * has not been built.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { FastifyPluginAsync } from 'fastify';
import type { Deps } from '../../deps';

/** Where the browser finds the manual (the web app's default USER_MANUAL_URL). */
export const USER_MANUAL_PATH = '/manual/user-manual.pdf';

export const manualRoutes: FastifyPluginAsync<{ deps: Deps }> = async (app, { deps }) => {
  const file = path.resolve(deps.cfg.USER_MANUAL_PDF);
  app.get(USER_MANUAL_PATH, async (_req, reply) => {
    // Read on every request: a rebuilt PDF is served without restarting the API.
    const stat = await fs.promises.stat(file).catch(() => undefined);
    if (!stat?.isFile()) {
      return reply
        .code(404)
        .type('text/plain; charset=utf-8')
        .send('The user manual has not been built on this server (npm run build).');
    }
    // Chromium's PDF viewer is a plug-in document, which the portal's CSP (object-src 'none', set by helmet on
    // the raw answer) blocks; a PDF runs none of the portal's scripts.
    reply.raw.removeHeader('content-security-policy');
    return reply
      .type('application/pdf')
      .header('content-disposition', 'inline; filename="user-manual.pdf"')
      .header('content-length', stat.size)
      .header('last-modified', stat.mtime.toUTCString())
      .header('cache-control', 'no-cache')
      .send(fs.createReadStream(file));
  });
};
