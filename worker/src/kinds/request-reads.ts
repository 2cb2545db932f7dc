/**
 * The reads of every kind's request rows by the reviewers' digest (REQUEST-LIFECYCLE "Reminders") and by the
 * reconciler (rule 1): the same filters, order and page over each kind's table, spread into the kind's own
 * `findMany` beside its `include`; and the labels of the people they list.
 */
import { RESOLVED_STATUSES } from '@portal/contract';
import type { RequestKindDefinition } from '@portal/workflows';
import type { WaitingRequest } from './types';

/** A portal user as the digest and the reconciler name them: 'First Last (username)'. */
export const personLabel = (u: { firstName: string; lastName: string; username: string }) =>
  `${u.firstName} ${u.lastName} (${u.username})`;

/** The status filter of a request not yet resolved, for the tables whose status is a `requestStatus`. */
export const unresolvedRequest = () => ({ requestStatus: { notIn: [...RESOLVED_STATUSES] } });

/** The digest's query: rows in `waitingStatus` (the kind's unresolved statuses) filed before `before`, oldest first. */
export const waitingQuery = <W extends object>(waitingStatus: W, before: Date) => ({
  where: { ...waitingStatus, sysdat: { lt: before } },
  orderBy: { sysdat: 'asc' as const },
});

/** The reconciler's query: rows filed before `before` whose workflow start was never confirmed, 100 by id. */
export const unstartedQuery = (before: Date) => ({
  where: { workflowStartedAt: null, sysdat: { lt: before } },
  orderBy: { id: 'asc' as const },
  take: 100,
});

/** One digest line of `row`, a request of `kind` in `status` (its label) about `subject`. */
export const waitingLine = (
  kind: Pick<RequestKindDefinition, 'label'>,
  row: { id: number; sysdat: Date },
  status: string,
  subject: string,
): WaitingRequest => ({ label: kind.label, requestId: row.id, status, subject, filedAt: row.sysdat });
