import { describe, expect, it } from 'vitest';
import type { RequestStatus } from '@portal/contract/statuses';
import { accessChangeDefinition as def } from '../access-change/definition';
import { reviewRejection } from './rules';
import type { LifecycleState, ReviewInput } from './types';

const state = (over: Partial<LifecycleState<RequestStatus>> = {}): LifecycleState<RequestStatus> => ({
  kind: 'ACCESS_CHANGE',
  requestId: 1,
  status: 'NEW',
  version: 0,
  reviewerComments: '',
  sysaidTicket: '',
  lastModifiedBy: null,
  outsideEffectsRan: false,
  busy: false,
  ...over,
});
const review = (over: Partial<ReviewInput<RequestStatus>> = {}): ReviewInput<RequestStatus> => ({
  expectedVersion: 0,
  requestStatus: 'IN_PROGRESS',
  reviewerComments: '',
  sysaidTicket: '',
  actor: { userId: 9, username: 'reviewer', permissions: ['WRITE_USERS', 'READ_USERS'] },
  ...over,
});

describe('reviewRejection', () => {
  it('accepts a legal move at the current version', () => {
    expect(reviewRejection(def, state(), review())).toBeNull();
  });

  it("rejects a reviewer without the kind's permission", () => {
    const r = review({ actor: { userId: 9, username: 'ro', permissions: ['READ_USERS'] } });
    expect(reviewRejection(def, state(), r)?.type).toBe('PERMISSION_DENIED');
  });

  it('tells a stale version before busy, and busy when the version is current', () => {
    expect(reviewRejection(def, state({ version: 2, busy: true }), review({ expectedVersion: 1 }))?.type).toBe(
      'STALE_VERSION',
    );
    expect(reviewRejection(def, state({ busy: true }), review())?.type).toBe('REVIEW_IN_PROGRESS');
  });

  it('rejects moves out of a resolved status and back to NEW', () => {
    expect(reviewRejection(def, state({ status: 'APPROVED' }), review())?.type).toBe('ILLEGAL_TRANSITION');
    expect(reviewRejection(def, state({ status: 'IN_PROGRESS' }), review({ requestStatus: 'NEW' }))?.type).toBe(
      'ILLEGAL_TRANSITION',
    );
  });

  // Effects that may have run are undone by the save itself (issue 21 case 2): the request can always end.
  it('accepts a rejection as well as the approval once outside effects may have run', () => {
    const withEffects = { ...def, outsideEffectsOn: 'APPROVED' as const };
    const s = state({ status: 'IN_PROGRESS', outsideEffectsRan: true });
    expect(reviewRejection(withEffects, s, review({ requestStatus: 'REJECTED' }))).toBeNull();
    expect(reviewRejection(withEffects, s, review({ requestStatus: 'APPROVED' }))).toBeNull();
  });

  it('answers NO_CHANGES when nothing differs, but accepts a comment-only save or a payload', () => {
    const s = state({ status: 'IN_PROGRESS' });
    expect(reviewRejection(def, s, review())?.type).toBe('NO_CHANGES');
    expect(reviewRejection(def, s, review({ reviewerComments: 'called site' }))).toBeNull();
    expect(reviewRejection(def, s, review({ payload: { roles: [] } }))).toBeNull();
  });
});
