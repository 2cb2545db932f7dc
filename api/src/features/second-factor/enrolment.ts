/**
 * Enrolling and removing a person's own second factors (issue 37; docs/decisions.md "Second factors"), the
 * profile's Security tab:
 * - adding an authenticator app asks for the password again, then shows its secret once (text, URI, QR code);
 * - a code from the app proves it holds the secret. A person's FIRST factor then waits for a link mailed to
 *   them (so a stolen password alone cannot enrol an attacker's app); a further one signs in at once;
 * - the factor that starts signing a person in brings ten recovery codes when none are left;
 * - recovery codes are issued again on demand, with the password;
 * - removing a factor asks for the password; the last one cannot be removed (only an ADMIN reset reopens the
 *   first enrolment, admin-reset.ts).
 * Every change is audited (entity PortalUser; never a secret or a code) and mailed to the person.
 */
import crypto from 'node:crypto';
import QRCode from 'qrcode';
import {
  type ConfirmTotpAnswer,
  SECOND_FACTOR_TEXTS as T,
  type SecondFactorOverview,
  type TotpEnrolmentAnswer,
} from '@portal/contract';
import { argon2ParamsOf } from '@portal/directory';
import { requirePassword } from '../../auth/password-again';
import type { AuthContext } from '../../auth/guard';
import { issueRecoveryCodes, recoveryCodesLeft } from '../../auth/recovery-codes';
import { afterFirstFactor, digest } from '../../auth/session';
import { beginTotp, confirmTotp } from '../../auth/totp';
import type { Deps } from '../../deps';
import { unavailable, unprocessable } from '../../http/errors';
import { recordAudit } from '../../shared/audit-log';
import { mailFactorNotice, mailConfirmationLink } from './mail';
import { secondFactorRequired } from '../../auth/second-factor-obligation';

const actorOf = (auth: AuthContext) => ({ userId: auth.userId, username: auth.username });

/** The sealing key, or 422 with the 'not available' text when the portal has none. */
function keyOf(deps: Deps): string {
  const key = deps.cfg.SECOND_FACTOR_KEY;
  if (!key) throw unprocessable({}, [T.unavailable]);
  return key;
}

/** The person's factors (no secrets), their unused recovery codes, and whether they must use one. */
export async function overview(deps: Deps, auth: AuthContext): Promise<SecondFactorOverview> {
  const [factors, left] = await Promise.all([
    deps.prisma.secondFactor.findMany({
      where: { portalUserId: auth.userId, OR: [{ confirmedAt: { not: null } }, { linkDigest: { not: null } }] },
      orderBy: { id: 'asc' },
    }),
    recoveryCodesLeft(deps.prisma, auth.userId),
  ]);
  return {
    factors: factors.map((f) => ({
      id: f.id,
      kind: f.kind,
      label: f.label,
      state: f.confirmedAt ? 'ACTIVE' : 'AWAITING_EMAIL',
      createdAt: f.createdAt.toISOString(),
      lastUsedAt: f.confirmedAt && f.lastUsedAt ? f.lastUsedAt.toISOString() : null,
    })),
    recoveryCodesLeft: left,
    required: auth.secondFactorEnrolmentDue || secondFactorRequired(deps.cfg, auth.permissions),
    available: !!deps.cfg.SECOND_FACTOR_KEY,
  };
}

/** Begins an authenticator-app enrolment: the secret, answered once, with its QR code. */
export async function beginEnrolment(
  deps: Deps,
  auth: AuthContext,
  body: { password: string; label: string },
): Promise<TotpEnrolmentAnswer> {
  const key = keyOf(deps);
  await requirePassword(deps, auth, body.password);
  const enrolment = await beginTotp(
    deps.prisma,
    key,
    { id: auth.userId, username: auth.username },
    {
      label: body.label,
      issuer: deps.cfg.SECOND_FACTOR_ISSUER,
    },
  );
  const qrSvg = await QRCode.toString(enrolment.uri, { type: 'svg', errorCorrectionLevel: 'M', margin: 2 });
  return { ...enrolment, qrSvg };
}

/** How many factors sign `userId` in (0: the next one is a first factor, confirmed by the mailed link). */
export const activeCount = (deps: Deps, userId: number) =>
  deps.prisma.secondFactor.count({ where: { portalUserId: userId, confirmedAt: { not: null } } });

/**
 * The code from the app for enrolment `factorId`. A first factor: proven, and a confirmation link is mailed
 * (AWAITING_EMAIL; the proof is undone when the mail cannot be sent, so the person can try again). A further
 * one: signs in at once (ACTIVE), with recovery codes when none are left.
 * @throws HttpError 422 `code` when the code is wrong or used, 503 when the mail cannot be sent.
 */
export async function confirmEnrolment(
  deps: Deps,
  auth: AuthContext,
  factorId: number,
  code: string,
): Promise<ConfirmTotpAnswer> {
  const key = keyOf(deps);
  const first = (await activeCount(deps, auth.userId)) === 0;
  if (!(await confirmTotp(deps.prisma, key, auth.userId, factorId, code, first ? 'prove' : 'activate'))) {
    throw unprocessable({ code: [T.codeWrong] });
  }
  if (!first) return { state: 'ACTIVE', recoveryCodes: await activated(deps, auth, factorId) };
  await awaitMailedLink(deps, auth, factorId);
  return { state: 'AWAITING_EMAIL' };
}

/**
 * A proven first factor `factorId` waits for the link mailed to the person (AWAITING_EMAIL): the link's digest
 * is stored, the mail sent and the step audited. @throws HttpError 503 when the mail cannot be sent (the
 * enrolment is dropped, so the person can try again).
 */
export async function awaitMailedLink(deps: Deps, auth: AuthContext, factorId: number): Promise<void> {
  const token = crypto.randomBytes(32).toString('base64url');
  const expiresAt = new Date(Date.now() + deps.cfg.SECOND_FACTOR_LINK_TTL_MINUTES * 60_000);
  const factor = await deps.prisma.secondFactor.update({
    where: { id: factorId },
    data: { linkDigest: digest(token), linkExpiresAt: expiresAt },
  });
  try {
    await mailConfirmationLink(deps, auth, token, expiresAt);
  } catch (err) {
    await deps.prisma.secondFactor.delete({ where: { id: factorId } });
    throw Object.assign(unavailable(T.mailUnavailable), {
      cause: err,
    });
  }
  await deps.prisma.$transaction((tx) =>
    recordAudit(tx, actorOf(auth), {
      entityType: 'PortalUser',
      entityId: auth.userId,
      action: 'SECOND_FACTOR_CONFIRMATION_SENT',
      after: { kind: factor.kind, label: factor.label, factorId },
    }),
  );
}

/**
 * The mailed link of the person's first factor: it signs them in from now on, and their recovery codes are
 * issued (shown once). The link is the signed-in person's own, unexpired, used once.
 * @throws HttpError 422 with the link text otherwise.
 */
export async function confirmLink(deps: Deps, auth: AuthContext, token: string): Promise<string[]> {
  const factor = await deps.prisma.secondFactor.findFirst({
    where: { linkDigest: digest(token), portalUserId: auth.userId },
  });
  // Conditional, so of two clicks on one link (two tabs, two processes) one confirms.
  const taken = factor
    ? await deps.prisma.secondFactor.updateMany({
        where: { id: factor.id, confirmedAt: null, provenAt: { not: null }, linkExpiresAt: { gt: new Date() } },
        data: { confirmedAt: new Date(), linkDigest: null, linkExpiresAt: null },
      })
    : { count: 0 };
  if (!factor || taken.count !== 1) throw unprocessable({}, [T.linkInvalid]);
  const codes = (await activated(deps, auth, factor.id, true)) ?? [];
  await afterFirstFactor(deps.prisma, auth.userId);
  return codes;
}

/**
 * Bookkeeping of a factor that now signs the person in: the audit row, the mail, and recovery codes when
 * none are left (or `always`). @returns the new codes, if any.
 */
export async function activated(
  deps: Deps,
  auth: AuthContext,
  factorId: number,
  always = false,
): Promise<string[] | undefined> {
  const factor = await deps.prisma.secondFactor.findUniqueOrThrow({ where: { id: factorId } });
  // Another portal's pending enrolments of this person are dropped: the factor that won is the one in use.
  await deps.prisma.secondFactor.deleteMany({ where: { portalUserId: auth.userId, confirmedAt: null } });
  const codes =
    always || (await recoveryCodesLeft(deps.prisma, auth.userId)) === 0
      ? await issueRecoveryCodes(deps.prisma, auth.userId, argon2ParamsOf(deps.directory))
      : undefined;
  await deps.prisma.$transaction((tx) =>
    recordAudit(tx, actorOf(auth), {
      entityType: 'PortalUser',
      entityId: auth.userId,
      action: 'SECOND_FACTOR_ADDED',
      after: { kind: factor.kind, label: factor.label, factorId, recoveryCodesIssued: codes ? codes.length : 0 },
    }),
  );
  await mailFactorNotice(deps, auth, 'added', factor.label);
  return codes;
}

/** New recovery codes on demand (the password again; a person with an active factor). Shown once. */
export async function renewRecoveryCodes(deps: Deps, auth: AuthContext, password: string): Promise<string[]> {
  await requirePassword(deps, auth, password);
  if ((await activeCount(deps, auth.userId)) === 0) throw unprocessable({}, [T.noFactor]);
  const codes = await issueRecoveryCodes(deps.prisma, auth.userId, argon2ParamsOf(deps.directory));
  await deps.prisma.$transaction((tx) =>
    recordAudit(tx, actorOf(auth), {
      entityType: 'PortalUser',
      entityId: auth.userId,
      action: 'RECOVERY_CODES_ISSUED',
      after: { count: codes.length },
    }),
  );
  return codes;
}

/**
 * Removes one of the person's factors (the password again). The last active one stays: 422 with the
 * lastFactor text. A pending enrolment is simply dropped. @returns false when no such factor is theirs.
 */
export async function removeFactor(
  deps: Deps,
  auth: AuthContext,
  factorId: number,
  password: string,
): Promise<boolean> {
  await requirePassword(deps, auth, password);
  const removed = await deps.prisma.$transaction(async (tx) => {
    // The person's factor rows, locked: two removals at once cannot both see another factor left.
    const mine = await tx.$queryRaw<Array<{ id: number; confirmed: boolean; label: string; kind: string }>>`
      SELECT "id", "confirmedAt" IS NOT NULL AS confirmed, "label", "kind"::text AS kind FROM "SecondFactor"
       WHERE "portalUserId" = ${auth.userId} ORDER BY "id" FOR UPDATE`;
    const factor = mine.find((f) => f.id === factorId);
    if (!factor) return null;
    if (factor.confirmed && mine.filter((f) => f.confirmed).length === 1) throw unprocessable({}, [T.lastFactor]);
    await tx.secondFactor.delete({ where: { id: factorId } });
    if (factor.confirmed) {
      await recordAudit(tx, actorOf(auth), {
        entityType: 'PortalUser',
        entityId: auth.userId,
        action: 'SECOND_FACTOR_REMOVED',
        before: { kind: factor.kind, label: factor.label, factorId },
      });
    }
    return factor;
  });
  if (!removed) return false;
  if (removed.confirmed) await mailFactorNotice(deps, auth, 'removed', removed.label);
  return true;
}
