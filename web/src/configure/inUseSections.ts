import {
  REQUEST_STATUS_LABELS,
  type OutstandingRequestRef,
  type PendingUserRef,
  type StudyRoleRef,
  type UserRef,
} from '@portal/contract';
import { countSentence } from './api';
import type { InUseSection } from './InUseDialog';

/**
 * What the delete dialogs of study roles and systems list (001 §4: in-use checks before deactivation).
 * Active users are informational (their records are kept); outstanding requests, pending registrations and,
 * for systems, active study roles block the deactivation, as the server does.
 */
const userItem = (u: UserRef) => `${u.firstName} ${u.lastName} (${u.email})`;
const pendingItem = (p: PendingUserRef) => `${p.firstName} ${p.lastName} (${p.email})`;
const requestItem = (r: OutstandingRequestRef) =>
  `Request #${r.id}: ${r.firstName} ${r.lastName}, ${REQUEST_STATUS_LABELS[r.requestStatus]}`;

export function studyRoleInUseSections(
  data: { users: UserRef[]; pending: PendingUserRef[]; requests: OutstandingRequestRef[] } | undefined,
): InUseSection[] {
  if (!data) return [];
  const what = 'this study role';
  return [
    { summary: countSentence(data.users.length, 'active user', 'active users', what), items: data.users.map(userItem) },
    {
      summary: countSentence(data.pending.length, 'pending registration', 'pending registrations', what),
      items: data.pending.map(pendingItem),
      blocking: true,
    },
    {
      summary: countSentence(data.requests.length, 'outstanding request', 'outstanding requests', what),
      items: data.requests.map(requestItem),
      blocking: true,
    },
  ];
}

export function systemInUseSections(
  data:
    | { studyRoles: StudyRoleRef[]; users: UserRef[]; pending: PendingUserRef[]; requests: OutstandingRequestRef[] }
    | undefined,
): InUseSection[] {
  if (!data) return [];
  const what = 'this system';
  const active = data.studyRoles.filter((r) => !r.inactive);
  const inactive = data.studyRoles.filter((r) => r.inactive);
  return [
    {
      summary: countSentence(active.length, 'active study role', 'active study roles', what),
      items: active.map((r) => r.roleName),
      blocking: true,
    },
    {
      summary: countSentence(inactive.length, 'inactive study role', 'inactive study roles', what),
      items: inactive.map((r) => r.roleName),
    },
    { summary: countSentence(data.users.length, 'active user', 'active users', what), items: data.users.map(userItem) },
    {
      summary: countSentence(data.pending.length, 'pending registration', 'pending registrations', what),
      items: data.pending.map(pendingItem),
      blocking: true,
    },
    {
      summary: countSentence(data.requests.length, 'outstanding request', 'outstanding requests', what),
      items: data.requests.map(requestItem),
      blocking: true,
    },
  ];
}
