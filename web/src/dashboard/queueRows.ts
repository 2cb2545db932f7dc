import {
  QUEUE_AGE_BUCKETS,
  USER_REQUEST_TYPE_LABELS,
  type QueueAgeBucket,
  type QueueGroup,
  type UserRequestStatus,
  type UserRequestType,
} from '@portal/contract';
import { statusLabel } from '../shared/StatusBadge';

/** One line of the reviewers' queue table and chart: a kind and status with its counts by age. */
export interface QueueLine extends Record<QueueAgeBucket, number> {
  key: string;
  label: string;
  userRequestType: UserRequestType;
  requestStatus: UserRequestStatus;
  total: number;
  oldest: string;
}

/** Pivots the groups (kind, status, age) into one line per kind and status, kinds and statuses in API order. */
export function queueLines(groups: readonly QueueGroup[]): QueueLine[] {
  const lines = new Map<string, QueueLine>();
  for (const g of groups) {
    const key = `${g.userRequestType}:${g.requestStatus}`;
    let line = lines.get(key);
    if (!line) {
      line = {
        key,
        label: `${USER_REQUEST_TYPE_LABELS[g.userRequestType]}: ${statusLabel(g.requestStatus)}`,
        userRequestType: g.userRequestType,
        requestStatus: g.requestStatus,
        total: 0,
        oldest: g.oldest,
        ...(Object.fromEntries(QUEUE_AGE_BUCKETS.map((b) => [b, 0])) as Record<QueueAgeBucket, number>),
      };
      lines.set(key, line);
    }
    line[g.age] += g.count;
    line.total += g.count;
    if (g.oldest < line.oldest) line.oldest = g.oldest;
  }
  return [...lines.values()];
}
