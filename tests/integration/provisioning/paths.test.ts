/**
 * The emitting paths that run in workflows reach the provisioned system too (issue 41): the access expiry's
 * removal, an access review's Remove decision carried out at its close, and a profile change's approval each
 * write their notice in their own transaction, and the worker's listener has the account converged. Real
 * scim2-server, real in-process worker (with the directory, for the profile change's outside effect).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { addDays, dayIn } from '@portal/contract';
import { ACCESS_EXPIRY_WORKFLOW_TYPE, type AccessExpiryInput } from '@portal/workflows';
import { createTestUser } from '../auth-helpers';
import { type Session, signIn } from '../harness';
import { decide, fileCampaign, startCampaign, statusReached } from '../access-review/support';
import { fileChange, newRequester, reviewCall } from '../profile-change/support';
import { emailOf, useProvisioningRig } from './support';

const DAY = 86_400_000;
const rig = useProvisioningRig('provisioning-paths');
let reviewer: Session;
beforeAll(async () => {
  reviewer = await signIn(rig.api.app, 'reviewer');
});
const grant = (u: Parameters<typeof rig.grant>[0], extra: Record<string, unknown> = {}) =>
  rig.grant(u, [rig.systemId], extra);
const { untilAccount } = rig;

describe('emitting paths run by workflows', () => {
  it('the access expiry deactivates the account of an access that ended', async () => {
    const u = await createTestUser(rig.api, 'provexp');
    await grant(u, { accessEndDate: addDays(dayIn('UTC', new Date()), 1) });
    await untilAccount(u, 'the account created', (a) => a.active === true);
    await rig.temporal.workflow.execute(ACCESS_EXPIRY_WORKFLOW_TYPE, {
      taskQueue: rig.taskQueue,
      workflowId: `${rig.taskQueue}-expiry`,
      args: [
        {
          timeZone: 'UTC',
          noticeDays: 14,
          now: new Date(Date.now() + 3 * DAY).toISOString(),
        } satisfies AccessExpiryInput,
      ],
      workflowExecutionTimeout: '2 minutes',
    });
    await untilAccount(u, 'the account deactivated by the expiry', (a) => a.active === false);
  });

  it("an access review's Remove decision, carried out at the close, deactivates the account", async () => {
    const u = await createTestUser(rig.api, 'provrev');
    await grant(u);
    await untilAccount(u, 'the account created', (a) => a.active === true);
    const [record] = await rig.api.prisma.userAccess.findMany({ where: { portalUserId: u.user.id, inactive: false } });
    const campaign = await fileCampaign(rig.api.prisma, {
      scope: { systemAccessIds: [rig.systemId] },
      defaultDecision: 'KEEP',
    });
    await startCampaign(rig.api.prisma, rig.temporal, rig.taskQueue, campaign, { duration: '4 seconds' });
    await statusReached(rig.api.prisma, campaign.id, 'OPEN');
    await decide(rig.api.prisma, campaign.id, [record!.id], 'REMOVE');
    await statusReached(rig.api.prisma, campaign.id, 'CLOSED');
    await untilAccount(u, 'the account deactivated by the review', (a) => a.active === false);
  });

  it("a profile change's approval sends the new name and email", async () => {
    const r = await newRequester(rig.api, 'provpc');
    await grant(r.user);
    await untilAccount(r.user, 'the account created', (a) => a.active === true);
    const filed = await fileChange(rig.api, r);
    const approved = await reviewCall(rig.api, reviewer, filed, {
      versionno: filed.versionno,
      requestStatus: 'APPROVED',
    });
    expect(approved.statusCode, approved.body).toBe(200);
    const { email, lastName } = await rig.api.prisma.portalUser.findUniqueOrThrow({ where: { id: r.user.user.id } });
    expect(email).not.toBe(r.user.email);
    const account = await untilAccount(r.user, 'the new email', (a) => emailOf(a) === email);
    expect(account.name).toMatchObject({ givenName: 'Renamed', familyName: lastName });
  });
});
