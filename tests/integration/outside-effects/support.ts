/**
 * Shared setup of the outside-effects tests: the reviewer's registration actions through the API's routes
 * (approve with the 'Network User' portal role, deny) and registrations filed by proxy as the demo 'user'.
 */
import { beforeAll } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import { type Session, type TestApi, caller, signIn } from '../harness';
import { fileByProxy } from '../registrations/support';

export interface RegistrationReview {
  /** The reviewer's session, filled in place before the file's tests. */
  reviewer: Session;
  /** Files a registration by proxy (no captcha) for a new person. */
  file(api: TestApi): Promise<{ id: number; email: string; workflowId: string }>;
  /** Approves `reg` at `versionno` (0), creating the entry `username` with the 'Network User' role. */
  approve(api: TestApi, reg: { id: number }, username: string, versionno?: number): Promise<LightMyRequestResponse>;
  /** Denies `reg` at `versionno` (0). */
  deny(api: TestApi, reg: { id: number }, versionno?: number): Promise<LightMyRequestResponse>;
}

/**
 * Signs in the reviewer and the filing user on `apis[0]` before the file's tests (register it after
 * useWorkflowApis, whose hook starts that API).
 */
export function useRegistrationReview(apis: TestApi[]): RegistrationReview {
  const reviewer = {} as Session;
  const filer = {} as Session;
  let userRole = 0;
  beforeAll(async () => {
    const app = apis[0]!.app;
    Object.assign(reviewer, await signIn(app, 'reviewer'));
    Object.assign(filer, await signIn(app, 'user'));
    userRole = (await apis[0]!.prisma.portalRole.findFirstOrThrow({ where: { description: 'Network User' } })).id;
  }, 60_000);
  return {
    reviewer,
    file: (api) => fileByProxy(api, filer),
    approve: (api, reg, username, versionno = 0) =>
      caller(api.app)(reviewer, 'PUT', '/rest/secure/user_registration_action/approve', {
        registrationForm: { id: reg.id, versionno },
        portalRoleIds: [userRole],
        username,
      }),
    deny: (api, reg, versionno = 0) =>
      caller(api.app)(reviewer, 'PUT', '/rest/secure/user_registration_action/deny', {
        registrationForm: { id: reg.id, versionno },
      }),
  };
}
