/**
 * The single sign-on tests' setup (issue 22): an API listening on a real port (the provider's issuer is
 * PORTAL_URL + '/oidc') and people with and without access; the browser stand-in, the registered system and
 * the portal's sign-in step are tests/support/sso-browser.ts (shared with the bench).
 */
import net from 'node:net';
import { afterAll, beforeAll } from 'vitest';
import { type TestApp, buildTestApp, createTestUser, signIn } from '../auth-helpers';

export {
  Browser,
  POST_LOGOUT_URI,
  REDIRECT_URI,
  authorizationRequest,
  discover,
  postPortalStep,
  reachPortalStep,
  registerSystem,
  signInThroughPortal,
} from '../../support/sso-browser';

/** A free loopback port. */
export async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((r) => server.close(() => r()));
  return port;
}

export interface SsoStack {
  t: TestApp;
  base: string;
  issuer: string;
  close(): Promise<void>;
}

/** Starts an API with the provider on, listening on a free port. */
export async function startSsoApi(env: Record<string, string> = {}): Promise<SsoStack> {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  // The stack's OIDC_KEY_ENCRYPTION_KEY (global setup): every API of the run shares the stored keys.
  const t = await buildTestApp({ PORTAL_URL: base, ...env });
  await t.app.listen({ port, host: '127.0.0.1' });
  return { t, base, issuer: `${base}/oidc`, close: () => t.close() };
}

/** One provider API for a test file: started before its tests, closed after. */
export function useSsoStack(): { readonly current: SsoStack } {
  const ref = {} as { current: SsoStack };
  beforeAll(async () => {
    ref.current = await startSsoApi();
  }, 60_000);
  afterAll(async () => ref.current?.close());
  return ref;
}

/** Gives portal user `portalUserId` an access record that grants system `systemId`. */
export async function grantSystem(t: TestApp, portalUserId: number, systemId: number): Promise<void> {
  await t.prisma.userAccess.create({
    data: {
      portalUserId,
      roleName: 'Research Pharmacist',
      siteCodes: ['MA036'],
      studyNames: ['E1234'],
      systemAccessIds: [systemId],
      createdBy: 'test',
      lastModifiedBy: 'test',
    },
  });
}

/** A signed-in person; with `systemId`, holding an access record that grants it. */
export async function person(t: TestApp, tag: string, systemId?: number) {
  const user = await createTestUser(t, tag);
  if (systemId !== undefined) await grantSystem(t, user.user.id, systemId);
  const session = await signIn(t.app, user.username, user.password);
  const row = await t.prisma.portalUser.findUniqueOrThrow({ where: { id: user.user.id } });
  return { user: row, session };
}
