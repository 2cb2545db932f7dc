/**
 * Shared setup of the profile-change tests: a throwaway user (portal row + directory entry + password) signed
 * in, and their request filed through the API.
 */
import { expect } from 'vitest';
import type { ProfileChangeRequest } from '@portal/contract';
import { type TestUser, createTestUser } from '../auth-helpers';
import { type Session, type TestApi, caller, signIn } from '../harness';

export const BASE = '/rest/secure/ldap_user_profile_mod_request';

export interface Requester {
  user: TestUser;
  session: Session;
}

/** A fresh external user with a directory entry, signed in. */
export async function newRequester(api: TestApi, tag: string): Promise<Requester> {
  const user = await createTestUser(api, tag);
  return { user, session: await signIn(api.app, user.username, user.password) };
}

/** The names and email a request asks for: a new last name and email unique to this user. */
export const askedFor = (r: Requester, over: Record<string, unknown> = {}) => ({
  firstName: 'Renamed',
  lastName: `Person${r.user.user.id}`,
  email: `renamed.${r.user.username}@it.portal.test`,
  requesterComments: 'I married',
  ...over,
});

/** Files the requester's request and expects 200. */
export async function fileChange(
  api: TestApi,
  r: Requester,
  over: Record<string, unknown> = {},
): Promise<ProfileChangeRequest> {
  const res = await caller(api.app)(r.session, 'POST', BASE, askedFor(r, over));
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}

/** A reviewer's save of `request` at `versionno`. */
export const reviewCall = (
  api: TestApi,
  s: Session,
  request: { id: number },
  body: { versionno: number; requestStatus: string; reviewerComments?: string; sysaidTicket?: string },
) => caller(api.app)(s, 'PUT', `${BASE}/${request.id}`, { id: request.id, ...body });
