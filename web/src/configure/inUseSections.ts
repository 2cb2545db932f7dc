import { REQUEST_STATUS_LABELS, type OutstandingRequestRef, type PendingUserRef, type UserRef } from '@portal/contract';
import type { StudyRoleRefs, SystemRefs } from './api/resources';
import type { InUseSection } from './InUseDialog';

/** '1 active user references this portal role.' / '3 active users reference this portal role.' */
export function countSentence(n: number, singular: string, plural: string, what: string): string {
  return `${n} ${n === 1 ? `${singular} references` : `${plural} reference`} ${what}.`;
}

/**
 * What the delete dialogs of study roles and systems list (001 §4: in-use checks before deactivation).
 * Active users are informational (their records are kept); outstanding requests, pending registrations and,
 * for systems, active study roles block the deactivation, as the server does.
 */
const userItem = (u: UserRef) => `${u.firstName} ${u.lastName} (${u.email})`;
const pendingItem = (p: PendingUserRef) => `${p.firstName} ${p.lastName} (${p.email})`;
const requestItem = (r: OutstandingRequestRef) =>
  `Request #${r.id}: ${r.firstName} ${r.lastName}, ${REQUEST_STATUS_LABELS[r.requestStatus]}`;

export function studyRoleInUseSections(data: StudyRoleRefs | undefined): InUseSection[] {
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

export function systemInUseSections(data: SystemRefs | undefined): InUseSection[] {
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
