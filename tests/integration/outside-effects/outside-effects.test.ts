/**
 * Effects outside the database that ran but did not report, and approvals refused after them (issue 21 cases 2
 * and 3; REQUEST-LIFECYCLE rule 3), through the API on the real dev server, slapd and PostgreSQL:
 * - a registration's directory entry written by an approval whose activity then failed is removed when the
 *   reviewer denies; a profile change's name and email written to the directory are restored when the reviewer
 *   rejects; both audited;
 * - a registration whose approving commit is refused after its entry was made can be denied (the entry it
 *   created removed), or approved with a corrected choice, which is the one applied;
 * - two approvals of one registration racing: one is applied, one entry and one user exist.
 */
import { describe, expect, it } from 'vitest';
import { ApplicationFailure } from '@temporalio/common';
import { findPeopleByEmail, readPersonFields } from '@portal/directory';
import { type PortalActivities, createActivities } from '@portal/worker';
import { testMailSettings } from '../fixtures';
import type { TestApi } from '../harness';
import { auditActions, maybeRecordHistory } from '../lifecycle/support';
import { fileChange, newRequester, reviewCall } from '../profile-change/support';
import { useWorkflowApis, withWorker } from '../workflow-apis';
import { useRegistrationReview } from './support';

const { apis, newApi, temporal, finalState } = useWorkflowApis('outside-effects');
const { reviewer, file: fileRegistration, approve, deny } = useRegistrationReview(apis);

/** The kind's real outside effect, then a failure that is never retried: it ran, but did not report. */
function effectThenFailure(api: TestApi): Partial<PortalActivities> {
  const real = createActivities(api.prisma, testMailSettings(), api.directory);
  return {
    applyOutsideEffects: async (input) => {
      await real.applyOutsideEffects(input);
      throw ApplicationFailure.nonRetryable('injected: the worker failed after the directory write');
    },
  };
}

describe('an outside effect that ran but did not report (case 2)', () => {
  it("removes the registration's entry when the reviewer denies, audited", async () => {
    const api = await newApi();
    await withWorker(api, { overrides: effectThenFailure(api) }, async () => {
      const reg = await fileRegistration(api);
      expect((await approve(api, reg, `oe${reg.id}`)).statusCode).toBe(503);
      expect(await findPeopleByEmail(api.directory, reg.email)).toHaveLength(1);
      const denied = await deny(api, reg);
      expect(denied.statusCode, denied.body).toBe(200);
      expect(await findPeopleByEmail(api.directory, reg.email)).toEqual([]);
      expect(await auditActions(api.prisma, reg.workflowId)).toContain('DIRECTORY_ENTRY_REMOVED');
      expect(await api.prisma.portalUser.count({ where: { email: reg.email } })).toBe(0);
      expect(await finalState(reg.workflowId)).toMatchObject({ status: 'DENIED', outsideEffectsRan: false });
      await maybeRecordHistory(temporal, reg.workflowId, 'registration', 'denied-entry-removed');
    });
  });

  it("restores the user's directory name and email when the reviewer rejects a profile change, audited", async () => {
    const api = await newApi();
    await withWorker(api, { overrides: effectThenFailure(api) }, async () => {
      const r = await newRequester(api, 'oeprofile');
      const before = await readPersonFields(api.directory, r.user.user.uuid!);
      const filed = await fileChange(api, r);
      expect((await reviewCall(api, reviewer, filed, { versionno: 0, requestStatus: 'APPROVED' })).statusCode).toBe(
        503,
      );
      expect((await readPersonFields(api.directory, r.user.user.uuid!))?.email).toBe(filed.email);
      const rejected = await reviewCall(api, reviewer, filed, { versionno: 0, requestStatus: 'REJECTED' });
      expect(rejected.statusCode, rejected.body).toBe(200);
      expect(await readPersonFields(api.directory, r.user.user.uuid!)).toEqual(before);
      expect(await auditActions(api.prisma, filed.workflowId)).toContain('DIRECTORY_RESTORED');
      expect(await finalState(filed.workflowId)).toMatchObject({ status: 'REJECTED', outsideEffectsRan: false });
      await maybeRecordHistory(temporal, filed.workflowId, 'profile-change', 'rejected-directory-restored');
    });
  });
});

describe('a registration whose approving commit is refused after its entry was made (case 3)', () => {
  /** Another portal user takes the registration's address right after the directory write, once. */
  function addressTakenAfterTheEntry(api: TestApi, holder: { id: number; email: string }) {
    const real = createActivities(api.prisma, testMailSettings(), api.directory);
    let taken = false;
    const overrides: Partial<PortalActivities> = {
      applyOutsideEffects: async (input) => {
        await real.applyOutsideEffects(input);
        if (taken) return;
        taken = true;
        const reg = await api.prisma.registration.findUniqueOrThrow({ where: { id: input.requestId } });
        await api.prisma.portalUser.update({ where: { id: holder.id }, data: { email: reg.email } });
      },
    };
    const free = () => api.prisma.portalUser.update({ where: { id: holder.id }, data: { email: holder.email } });
    return { overrides, free };
  }

  it('can be denied, and the entry it created is removed', async () => {
    const api = await newApi();
    const holder = (await newRequester(api, 'oeholder1')).user.user;
    const { overrides, free } = addressTakenAfterTheEntry(api, holder);
    await withWorker(api, { overrides }, async () => {
      const reg = await fileRegistration(api);
      expect((await approve(api, reg, `oed${reg.id}`)).statusCode).toBe(422);
      await free();
      expect(await findPeopleByEmail(api.directory, reg.email)).toHaveLength(1);
      const denied = await deny(api, reg);
      expect(denied.statusCode, denied.body).toBe(200);
      expect(await findPeopleByEmail(api.directory, reg.email)).toEqual([]);
    });
  });

  it('can be approved with a corrected choice, which is the one applied', async () => {
    const api = await newApi();
    const holder = (await newRequester(api, 'oeholder2')).user.user;
    const { overrides, free } = addressTakenAfterTheEntry(api, holder);
    await withWorker(api, { overrides }, async () => {
      const reg = await fileRegistration(api);
      expect((await approve(api, reg, `oefirst${reg.id}`)).statusCode).toBe(422);
      await free();
      const approved = await approve(api, reg, `oesecond${reg.id}`);
      expect(approved.statusCode, approved.body).toBe(200);
      const user = await api.prisma.portalUser.findFirstOrThrow({ where: { email: reg.email } });
      expect(user.username).toBe(`oesecond${reg.id}`);
      const entries = await findPeopleByEmail(api.directory, reg.email);
      expect(entries.map((e) => e.username)).toEqual([`oesecond${reg.id}`]);
      expect(entries[0]!.uuid).toBe(user.uuid);
    });
  });
});

describe('two approvals of one registration at once', () => {
  it('lets one through; the other is told busy or stale, and one entry and one user exist', async () => {
    const api = await newApi({ REVIEW_DEADLINE_MS: '60000' });
    await withWorker(api, {}, async () => {
      const reg = await fileRegistration(api);
      const answers = await Promise.all([approve(api, reg, `oea${reg.id}`), approve(api, reg, `oeb${reg.id}`)]);
      const codes = answers.map((r) => r.statusCode).sort();
      expect(codes[0], answers.map((r) => r.body).join('\n')).toBe(200);
      expect([409, 422]).toContain(codes[1]);
      const user = await api.prisma.portalUser.findFirstOrThrow({ where: { email: reg.email } });
      const entries = await findPeopleByEmail(api.directory, reg.email);
      expect(entries.map((e) => e.uuid)).toEqual([user.uuid]);
      expect(await api.prisma.portalUser.count({ where: { email: reg.email } })).toBe(1);
      expect(await finalState(reg.workflowId)).toMatchObject({ status: 'APPROVED', version: 1 });
    });
  });
});
