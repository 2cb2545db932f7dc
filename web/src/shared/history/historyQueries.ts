/**
 * The Requests History's calls (001 §2.9; 001 §7): access-modification requests, profile-change requests and
 * registrations filed by proxy, for the signed-in user ('self') or for a user an administrator views. Each
 * list is read whole (the tables sort and filter in the browser) by its load-all call (lib/everyPage.ts).
 */
import { queryOptions, useQuery } from '@tanstack/react-query';
import {
  PROFILE_CHANGE_BASE,
  type AccessModRequest,
  type ProfileChangeRequest,
  type Registration,
} from '@portal/contract';
import { readEveryPage } from '../../lib/everyPage';
import { sessionKeys, useOwnRequests } from '../../lib/sessionQueries';

/** Whose history: the signed-in user's own, or user `userId`'s as an administrator sees it. */
export type HistorySubject = { self: true } | { self: false; userId: number };

/** Keys: one's own under 'session' (cleared at sign-out), a viewed user's under the users' root. */
export const historyKeys = {
  self: (kind: string) => [...sessionKeys.all, 'history', kind] as const,
  user: (userId: number, kind: string) => ['users', 'detail', userId, 'history', kind] as const,
};
const keyOf = (subject: HistorySubject, kind: string) =>
  subject.self ? historyKeys.self(kind) : historyKeys.user(subject.userId, kind);

/** GET .../user_access_mod_request/user (own, read from content) or .../user/{userId} (every page). */
export function useAccessRequestHistory(subject: HistorySubject) {
  const own = useOwnRequests(subject.self);
  const other = useQuery(
    queryOptions({
      queryKey: keyOf(subject, 'access'),
      queryFn: async ({ signal }) =>
        subject.self
          ? []
          : await readEveryPage<AccessModRequest>(
              `/rest/secure/user_access_mod_request/user/${subject.userId}`,
              {},
              signal,
            ),
      enabled: !subject.self,
    }),
  );
  return subject.self ? own : other;
}

/** GET /rest/secure/ldap_user_profile_mod_request/user or /user/{userId} (001 §7: lists in content), every page. */
export function useProfileChangeHistory(subject: HistorySubject) {
  return useQuery({
    queryKey: keyOf(subject, 'profileChange'),
    queryFn: ({ signal }) =>
      readEveryPage<ProfileChangeRequest>(
        subject.self ? `${PROFILE_CHANGE_BASE}/user` : `${PROFILE_CHANGE_BASE}/user/${subject.userId}`,
        {},
        signal,
      ),
  });
}

/** GET /rest/secure/user_management/user_registration/proxy or .../proxy/{id}: registrations the user filed, every page. */
export function useProxyRegistrationHistory(subject: HistorySubject) {
  return useQuery({
    queryKey: keyOf(subject, 'proxyRegistrations'),
    queryFn: ({ signal }) =>
      readEveryPage<Registration>(
        `/rest/secure/user_management/user_registration/proxy${subject.self ? '' : `/${subject.userId}`}`,
        { sort: 'sysdat,desc' },
        signal,
      ),
  });
}
