/**
 * 'Test connection' (issue 41 "a 'Test connection' that reads the target's `/ServiceProviderConfig`"): reads it
 * with the saved connection's base URL and token, then lists one user (the configuration may be served without
 * authentication, the users never are), each call within TEST_TIMEOUT_MS, and stores the outcome on the
 * connection (lastTestAt, lastTestOk, lastTestMessage, and whether the target supports PATCH, which the
 * convergence reads). A target that fails (refused, frozen, 401, not SCIM) is a result `ok: false` with the
 * reason, never an error of the call: the target's trouble is what the ADMIN asked about. The token goes to the
 * target only; the reason is the client's message (ScimError never carries the token). Tests the saved
 * connection, not unsaved values: the token is entered once, so the test has to use the stored one.
 */
import { type ProvisioningTestResult, PROVISIONING_MESSAGES } from '@portal/contract';
import { PROVISIONING_SEAL_PURPOSE, openText } from '@portal/db';
import { ScimClient } from '@portal/scim';
import type { Deps } from '../../deps';
import { unprocessable } from '../../http/errors';
import { type AuditActor, recordAudit } from '../../shared/audit-log';
import { ENTITY, TX_OPTIONS, describe, existingConnection } from './common';
import type { ConnectionRow } from './views';

/** How long (ms) the target may take to answer its service provider configuration. */
export const TEST_TIMEOUT_MS = 10_000;

/** The stored message's limit (the column's). */
const MESSAGE_MAX = 1024;

/** The opened token of `c`, or the reason it cannot be used. @throws 422 when PROVISIONING_KEY is not set. */
function tokenOf(deps: Deps, c: ConnectionRow): { token: string } | { problem: string } {
  if (!c.tokenSealed) return { problem: PROVISIONING_MESSAGES.noToken };
  const key = deps.cfg.PROVISIONING_KEY;
  if (!key) throw unprocessable({}, [PROVISIONING_MESSAGES.keyMissing]);
  try {
    return { token: openText(key, PROVISIONING_SEAL_PURPOSE, c.tokenSealed) };
  } catch {
    return { problem: PROVISIONING_MESSAGES.tokenUnreadable };
  }
}

/** Asks `c`'s target for its configuration. @returns whether it answered one, why not, and its PATCH support. */
async function probe(deps: Deps, c: ConnectionRow): Promise<{ ok: boolean; why: string; patch: boolean | null }> {
  const opened = tokenOf(deps, c);
  if ('problem' in opened) return { ok: false, why: opened.problem, patch: null };
  try {
    const client = new ScimClient({ baseUrl: c.baseUrl, token: opened.token, timeoutMs: TEST_TIMEOUT_MS });
    const config = await client.serviceProviderConfig();
    // RFC 7644 §4 lets a target serve its configuration without authentication: one user listed proves the token.
    await client.listUsers(1, 1);
    return { ok: true, why: '', patch: config.patch?.supported ?? false };
  } catch (err) {
    return { ok: false, why: describe(err), patch: null };
  }
}

/**
 * POST .../system_access/{id}/provisioning/test: tests the saved connection (module note), stores and audits
 * (`TESTED`) the outcome. @returns the result. @throws 404 (unknown system; no connection), 422 (fixed system;
 * a token is stored but PROVISIONING_KEY is not set).
 */
export async function testConnection(deps: Deps, actor: AuditActor, systemId: number): Promise<ProvisioningTestResult> {
  const c = await existingConnection(deps.prisma, systemId);
  const outcome = await probe(deps, c);
  const message = (outcome.ok ? PROVISIONING_MESSAGES.testOk : PROVISIONING_MESSAGES.testFailed(outcome.why)).slice(
    0,
    MESSAGE_MAX,
  );
  const testedAt = new Date();
  await deps.prisma.$transaction(async (tx) => {
    // The connection may have been removed while the target answered: then there is nothing to store.
    const stored = await tx.provisioningConnection.updateMany({
      where: { systemAccessId: systemId },
      data: {
        lastTestAt: testedAt,
        lastTestOk: outcome.ok,
        lastTestMessage: message,
        ...(outcome.patch !== null && { patchSupported: outcome.patch }),
      },
    });
    if (!stored.count) return;
    await recordAudit(tx, actor, {
      entityType: ENTITY,
      entityId: systemId,
      action: 'TESTED',
      after: { baseUrl: c.baseUrl, ok: outcome.ok, message },
    });
  }, TX_OPTIONS);
  return { ok: outcome.ok, message, testedAt: testedAt.toISOString() };
}
