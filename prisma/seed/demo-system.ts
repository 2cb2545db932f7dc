/**
 * The demo study system's single sign-on client (issue 22 "A real relying party to try it with"): the system
 * 'Electronic Data Capture' gets the confidential client of 'Electronic Data Capture (demo)'
 * (scripts/src/demo-system), with its redirect, post-logout and initiate-login URIs on http://127.0.0.1:<port>
 * and the digest of the data folder's secret. Runs on every start, also on an already seeded database, so the
 * registration follows the demo's current port and secret: the client row is written again (an upsert), never
 * a second one. A system that already has another client is left alone.
 */
import { z } from 'zod';
import type { PrismaClient } from '../src';
import { hashClientSecret } from '../src/client-secret';

/** The system the demo stands for. */
export const DEMO_SYSTEM_NAME = 'Electronic Data Capture';

/** The demo system's variables, set by the stack supervisor (scripts/src/demo-system/start.ts). */
export const DemoSystemEnvSchema = z.object({
  DEMO_SYSTEM_URL: z.url().optional(),
  DEMO_SYSTEM_CLIENT_ID: z.string().min(1).max(128).optional(),
  DEMO_SYSTEM_CLIENT_SECRET: z.string().min(32).optional(),
});

/**
 * Registers (or updates) the demo system's client. @returns false when it was left alone (no such system,
 * or the system or the client id already belongs to another registration).
 */
export async function registerDemoSystem(
  prisma: PrismaClient,
  demo: { url: string; clientId: string; secret: string },
  log: (line: string) => void = () => {},
): Promise<boolean> {
  const system = await prisma.systemAccess.findFirst({
    where: { systemName: DEMO_SYSTEM_NAME },
    include: { ssoClient: true },
  });
  if (!system) {
    log(`no system '${DEMO_SYSTEM_NAME}': the demo system is not registered`);
    return false;
  }
  const taken = await prisma.ssoClient.findUnique({ where: { clientId: demo.clientId } });
  if (
    (system.ssoClient && system.ssoClient.clientId !== demo.clientId) ||
    (taken && taken.systemAccessId !== system.id)
  ) {
    log(`'${DEMO_SYSTEM_NAME}' or the client id ${demo.clientId} is registered otherwise: left as it is`);
    return false;
  }
  const base = demo.url.replace(/\/+$/, '');
  const data = {
    isPublic: false,
    secretHash: await hashClientSecret(demo.secret),
    redirectUris: [`${base}/callback`],
    postLogoutRedirectUris: [`${base}/`],
    backchannelLogoutUri: null,
    initiateLoginUri: `${base}/login`,
  };
  await prisma.ssoClient.upsert({
    where: { clientId: demo.clientId },
    create: { clientId: demo.clientId, systemAccessId: system.id, ...data },
    update: data,
  });
  log(`'${DEMO_SYSTEM_NAME}' signs in through the demo system at ${base} (client ${demo.clientId})`);
  return true;
}
