/**
 * The back-channel logout activity (issue 22; OpenID Connect Back-Channel Logout 1.0 §2.4–2.5): a logout token
 * (a JWT signed with the provider's current key: iss, aud = the client, iat, exp, jti, sub, the
 * back-channel-logout event, no nonce) POSTed as `logout_token` to the client's back-channel logout URI. A 2xx
 * marks the notice sent; anything else throws, so Temporal retries it with backoff. The portal sends these
 * itself (the library sends them only when a provider session ends). A loopback target is sent to only outside
 * production (NODE_ENV).
 */
import crypto from 'node:crypto';
import { ApplicationFailure } from '@temporalio/activity';
import { SignJWT, importJWK } from 'jose';
import { type PrismaClient, currentSigningKey } from '@portal/db';
import type { SsoLogoutActivities } from '@portal/workflows';

export interface SsoSettings {
  /** OIDC_KEY_ENCRYPTION_KEY; undefined: single sign-on is off and nothing is sent. */
  keyEncryptionKey?: string;
  issuer: string;
  production: boolean;
}

const LOOPBACK = /^(127\.\d+\.\d+\.\d+|localhost|\[::1\])$/i;
const SEND_TIMEOUT_MS = 10_000;

export function createSsoLogoutActivities(prisma: PrismaClient, sso: SsoSettings): SsoLogoutActivities {
  return {
    async sendLogoutNotice({ noticeId }) {
      const notice = await prisma.ssoLogoutNotice.findUnique({ where: { id: noticeId } });
      if (!notice || notice.sentAt) return 'SKIPPED';
      const client = await prisma.ssoClient.findUnique({ where: { clientId: notice.clientId } });
      const target = client?.backchannelLogoutUri ? new URL(client.backchannelLogoutUri) : null;
      if (!target || (sso.production && LOOPBACK.test(target.hostname))) return 'SKIPPED';
      if (!sso.keyEncryptionKey) {
        throw ApplicationFailure.nonRetryable('single sign-on is off (OIDC_KEY_ENCRYPTION_KEY unset)');
      }
      const jwk = await currentSigningKey(prisma, sso.keyEncryptionKey);
      const token = await new SignJWT({ events: { 'http://schemas.openid.net/event/backchannel-logout': {} } })
        .setProtectedHeader({ alg: 'RS256', kid: jwk.kid, typ: 'logout+jwt' })
        .setIssuer(sso.issuer)
        .setAudience(notice.clientId)
        .setSubject(notice.subjectId)
        .setIssuedAt()
        .setExpirationTime('2m')
        .setJti(crypto.randomUUID())
        .sign(await importJWK(jwk, 'RS256'));
      let failure: string;
      try {
        const res = await fetch(target, {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams({ logout_token: token }),
          redirect: 'manual',
          signal: AbortSignal.timeout(SEND_TIMEOUT_MS),
        });
        if (res.ok) {
          await prisma.ssoLogoutNotice.update({
            where: { id: noticeId },
            data: { sentAt: new Date(), lastError: null },
          });
          return 'SENT';
        }
        failure = `the system answered ${res.status}`;
      } catch (err) {
        failure = err instanceof Error ? err.message : String(err);
      }
      await prisma.ssoLogoutNotice.update({ where: { id: noticeId }, data: { lastError: failure.slice(0, 1024) } });
      throw new Error(`back-channel logout to ${notice.clientId}: ${failure}`);
    },
  };
}
