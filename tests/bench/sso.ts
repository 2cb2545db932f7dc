/**
 * The single sign-on code flow (issue 22 Speed; a benchmark, not a timed test): a relying party (openid-client,
 * confidential, PKCE S256) and a fresh browser per flow (tests/support/sso-browser.ts) run the whole flow
 * through the portal (authorize → the portal's step page, not loaded → the sign-in step POST
 * /oidc/interaction/:uid/login with a live portal session → resume → code → token → userinfo), beside the
 * same flow in the same run on a bare oidc-provider in this process: a plain node:http server with the
 * portal's PostgreSQL adapter on the stack's database and its signing keys, one static confidential client,
 * a fixed account, and an interaction route that finishes at once with a fixed login and a grant. Both ask
 * for what a study system asks (`openid profile email study_access`) and both issue a refresh token, as the
 * portal does. Runs them in turn (timing.ts), prints p50 and p95 of both and the ratio of the p50s.
 * Targets: ratio at most 2, the portal's p50 under 100 ms.
 *
 *   cd tests && npx tsx --conditions=development bench/sso.ts      (its own stack)
 *
 * `npm run bench` (run.ts) calls `measureSso` on its stack.
 */
import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider, { type Configuration } from 'oidc-provider';
import * as oidc from 'openid-client';
import { createPrisma, type PrismaClient } from '@portal/db';
import { prismaAdapter } from '../../api/src/features/oidc/adapter';
import { loadSigningKeys } from '../../api/src/features/oidc/keys';
import {
  Browser,
  REDIRECT_URI,
  authorizationRequest,
  discover,
  registerSystem,
  signInThroughPortal,
} from '../support/sso-browser';
import { runAlone, signIn } from './stack';
import { percentile, timeAlternately } from './timing';

export const SSO_TARGETS = { portalToBareP50Ratio: 2, portalP50Ms: 100 };
const TIMES = Number(process.env.BENCH_SSO_TIMES ?? 50);
const WARM_UP = Number(process.env.BENCH_SSO_WARM_UP ?? 5);
const SCOPE = 'openid profile email study_access';

export interface SsoBench {
  flows: number;
  portalP50Ms: number;
  portalP95Ms: number;
  bareP50Ms: number;
  bareP95Ms: number;
  /** The portal's p50 over the bare provider's. */
  ratio: number;
}

const HOUR = 3600;
const LONG_LIVED = Object.fromEntries(['RefreshToken', 'Session', 'Grant'].map((k) => [k, 14 * 24 * HOUR]));

/** The bare provider's one account and what it tells. */
const BARE_SUB = crypto.randomUUID();
const BARE_CLAIMS = {
  sub: BARE_SUB,
  name: 'Bench Person',
  given_name: 'Bench',
  family_name: 'Person',
  email: 'bench.person@bench.portal.test',
  email_verified: true,
  study_access: [{ studyRole: 'Research Pharmacist', aoCodes: ['MA036'], laoCodes: [], studies: ['E1234'] }],
};

/**
 * oidc-provider with nothing of the portal's but its adapter (on `prisma`) and its signing keys (`keySecret`:
 * OIDC_KEY_ENCRYPTION_KEY), listening on a free loopback port at the root.
 * @returns its issuer, its client's id and secret, and `close()`.
 */
async function startBareProvider(prisma: PrismaClient, keySecret: string) {
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const client = { id: 'bare-bench', secret: crypto.randomBytes(24).toString('base64url') };
  const provider = new Provider(issuer, {
    adapter: prismaAdapter(prisma),
    clients: [
      {
        client_id: client.id,
        client_secret: client.secret,
        redirect_uris: [REDIRECT_URI],
        grant_types: ['authorization_code', 'refresh_token'],
        response_types: ['code'],
      },
    ],
    findAccount: (_ctx, sub) => ({ accountId: sub, claims: () => BARE_CLAIMS }),
    jwks: { keys: (await loadSigningKeys(prisma, keySecret)) as NonNullable<Configuration['jwks']>['keys'] },
    cookies: { keys: [crypto.randomBytes(32).toString('base64url')] },
    scopes: ['openid', 'profile', 'email', 'study_access'],
    claims: {
      profile: ['name', 'given_name', 'family_name'],
      email: ['email', 'email_verified'],
      study_access: ['study_access'],
    },
    features: { devInteractions: { enabled: false } },
    // Lifetimes like the portal's, set so that the library does not warn about its defaults.
    ttl: { AuthorizationCode: 60, AccessToken: HOUR, IdToken: HOUR, Interaction: HOUR, ...LONG_LIVED },
    issueRefreshToken: async (_ctx, c) => c.grantTypeAllowed('refresh_token'),
    interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
  });
  const callback = provider.callback();
  const finish = async (req: http.IncomingMessage, res: http.ServerResponse) => {
    const { params } = await provider.interactionDetails(req, res);
    const grant = new provider.Grant({ accountId: BARE_SUB, clientId: client.id });
    grant.addOIDCScope(String(params.scope));
    const grantId = await grant.save();
    await provider.interactionFinished(
      req,
      res,
      { login: { accountId: BARE_SUB }, consent: { grantId } },
      { mergeWithLastSubmission: false },
    );
  };
  server.on('request', (req: http.IncomingMessage, res: http.ServerResponse) => {
    if (!req.url?.startsWith('/interaction/')) return void callback(req, res);
    finish(req, res).catch((err: unknown) => {
      res.statusCode = 500;
      res.end(String(err));
    });
  });
  return {
    issuer,
    client,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** One whole flow of `config`'s client: the front channel (`signInAt`: authorize to the callback), token, userinfo. */
async function codeFlow(config: oidc.Configuration, signInAt: (authorizationUrl: URL) => Promise<URL>) {
  const { url, verifier, state } = await authorizationRequest(config, SCOPE);
  const tokens = await oidc.authorizationCodeGrant(config, await signInAt(url), {
    pkceCodeVerifier: verifier,
    expectedState: state,
  });
  const info = await oidc.fetchUserInfo(config, tokens.access_token, tokens.claims()!.sub);
  if (!Array.isArray(info.study_access)) throw new Error(`userinfo without study_access: ${JSON.stringify(info)}`);
}

/**
 * Registers a system with a client, grants it to the demo account 'user' and signs them in at `base`, starts
 * the bare provider on `databaseUrl`, then times both flows in turn.
 */
export async function measureSso(opts: { base: string; databaseUrl: string; keySecret: string }): Promise<SsoBench> {
  const prisma = createPrisma(opts.databaseUrl);
  const bare = await startBareProvider(prisma, opts.keySecret);
  try {
    const system = await registerSystem({ prisma });
    const user = await prisma.portalUser.findUniqueOrThrow({ where: { username: 'user' } });
    await prisma.userAccess.create({
      data: {
        portalUserId: user.id,
        roleName: 'Research Pharmacist',
        siteCodes: ['MA036'],
        studyNames: ['E1234'],
        systemAccessIds: [system.systemId],
        createdBy: 'bench',
        lastModifiedBy: 'bench',
      },
    });
    const session = await signIn(opts.base, 'user');
    const portalConfig = await discover(`${opts.base}/oidc`, system.clientId, system.secret);
    const bareConfig = await discover(bare.issuer, bare.client.id, bare.client.secret);

    const [portal, baseline] = await timeAlternately(
      () =>
        codeFlow(portalConfig, async (url) => {
          const { answer, callback } = await signInThroughPortal(new Browser(opts.base), url, session);
          if (!callback) throw new Error(`the portal refused the sign-in: ${JSON.stringify(answer)}`);
          return callback;
        }),
      () => codeFlow(bareConfig, async (url) => new URL((await new Browser(bare.issuer).follow(url.href)).url)),
      TIMES,
      WARM_UP,
    );
    const portalP50Ms = percentile(portal, 50);
    const bareP50Ms = percentile(baseline, 50);
    return {
      flows: TIMES,
      portalP50Ms,
      portalP95Ms: percentile(portal, 95),
      bareP50Ms,
      bareP95Ms: percentile(baseline, 95),
      ratio: portalP50Ms / bareP50Ms,
    };
  } finally {
    await bare.close();
    await prisma.$disconnect();
  }
}

/** The targets `r` misses, as sentences. */
export function ssoMissed(r: SsoBench): string[] {
  return [
    r.ratio > SSO_TARGETS.portalToBareP50Ratio &&
      `single sign-on p50 ${r.ratio.toFixed(2)}× the bare provider > ${SSO_TARGETS.portalToBareP50Ratio}×`,
    r.portalP50Ms > SSO_TARGETS.portalP50Ms &&
      `single sign-on p50 ${r.portalP50Ms.toFixed(1)} ms > ${SSO_TARGETS.portalP50Ms} ms`,
  ].filter((m): m is string => typeof m === 'string');
}

runAlone(
  import.meta.url,
  'bench-sso',
  (stack) =>
    measureSso({
      base: stack.urls.portal,
      databaseUrl: stack.urls.database,
      keySecret: stack.portalEnv.OIDC_KEY_ENCRYPTION_KEY,
    }),
  (r) => ({
    ...Object.fromEntries(Object.entries(r).map(([k, v]) => [k, Math.round(v * 100) / 100])),
    targets: SSO_TARGETS,
    missed: ssoMissed(r),
  }),
);
