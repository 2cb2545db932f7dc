/**
 * Two approvals that give one address to two people, racing (issue 21 case 4): the approvals of profile changes
 * (and registrations) to one lower-cased address are serialised, so only one reaches the directory; the other is
 * refused before any write ('Email address already exists in database') and stays rejectable. PortalUser.email
 * is unique on lower(email) in PostgreSQL.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { PROFILE_CHANGE_MESSAGES } from '@portal/contract';
import { readPersonFields } from '@portal/directory';
import { type Session, signIn } from '../harness';
import { fileChange, newRequester, reviewCall } from '../profile-change/support';
import { useWorkflowApis, withWorker } from '../workflow-apis';

const { apis, newApi } = useWorkflowApis('same-address');
let reviewer: Session;

beforeAll(async () => {
  reviewer = await signIn(apis[0]!.app, 'reviewer');
});

describe('one address, two approvals at once (case 4)', () => {
  it('lets one profile change have the address; the other is refused before any write and can be rejected', async () => {
    const api = await newApi({ REVIEW_DEADLINE_MS: '60000' });
    await withWorker(api, {}, async () => {
      const a = await newRequester(api, 'samea');
      const b = await newRequester(api, 'sameb');
      const email = `shared.${a.user.user.id}@it.portal.test`;
      const requests = [await fileChange(api, a, { email }), await fileChange(api, b, { email: email.toUpperCase() })];
      const answers = await Promise.all(
        requests.map((r) => reviewCall(api, reviewer, r, { versionno: 0, requestStatus: 'APPROVED' })),
      );
      expect(answers.map((r) => r.statusCode).sort()).toEqual([200, 422]);
      const loser = answers.findIndex((r) => r.statusCode === 422);
      expect(answers[loser]!.json().fieldErrors).toEqual({ email: [PROFILE_CHANGE_MESSAGES.emailInUse] });
      // The directory holds the address once, on the winner's entry; the loser's entry was never written.
      const people = [a, b];
      const fields = await Promise.all(people.map((p) => readPersonFields(api.directory, p.user.user.uuid!)));
      expect(fields.map((f) => f!.email.toLowerCase())).toEqual(
        people.map((p, i) => (i === loser ? p.user.email.toLowerCase() : email.toLowerCase())),
      );
      const rejected = await reviewCall(api, reviewer, requests[loser]!, { versionno: 0, requestStatus: 'REJECTED' });
      expect(rejected.statusCode, rejected.body).toBe(200);
    });
  });

  it('refuses a second portal user whose address differs only in case (unique on lower(email))', async () => {
    const api = apis[0]!;
    const a = await newRequester(api, 'casea');
    const b = await newRequester(api, 'caseb');
    await expect(
      api.prisma.portalUser.update({ where: { id: b.user.user.id }, data: { email: a.user.email.toUpperCase() } }),
    ).rejects.toThrow(/Unique constraint/);
  });
});
