import { AUDIT_ENTITY_TYPES, CONSTANTS, type AuditEntityType } from '@portal/contract';
import dayjs from 'dayjs';
import { pageFromUrl } from '../shared/urlView';

/** The audit trail's view state, kept in the URL so Back and links return to the same view. */
export interface AuditView {
  actor: string;
  entityType: AuditEntityType | null;
  entityId: string;
  /** Dates as YYYY-MM-DD (the browser's local days). */
  from: string | null;
  to: string | null;
  page: number;
  size: number;
  sort: { field: string; direction: 'asc' | 'desc' };
}

export const DEFAULT_SIZE = CONSTANTS.usersDefaultPageSize;
const DAY = /^\d{4}-\d{2}-\d{2}$/;

export function readView(search: URLSearchParams): AuditView {
  const entityType = search.get('entityType');
  const [field = 'at', direction] = (search.get('sort') ?? 'at,desc').split(',');
  const day = (key: string) => {
    const v = search.get(key);
    return v && DAY.test(v) && dayjs(v).isValid() ? v : null;
  };
  return {
    actor: search.get('actor') ?? '',
    entityType: AUDIT_ENTITY_TYPES.find((t) => t === entityType) ?? null,
    entityId: search.get('entityId') ?? '',
    from: day('from'),
    to: day('to'),
    ...pageFromUrl(search, DEFAULT_SIZE),
    sort: { field, direction: direction === 'asc' ? 'asc' : 'desc' },
  };
}

/** The GET /rest/secure/audit_trail query of a view: whole local days become ISO instants. */
export function apiQuery(v: AuditView): Record<string, string | number | undefined> {
  return {
    page: v.page,
    size: v.size,
    sort: `${v.sort.field},${v.sort.direction}`,
    actor: v.actor.trim() || undefined,
    entityType: v.entityType ?? undefined,
    entityId: v.entityId.trim() || undefined,
    from: v.from ? dayjs(v.from).startOf('day').toISOString() : undefined,
    to: v.to ? dayjs(v.to).endOf('day').toISOString() : undefined,
  };
}
