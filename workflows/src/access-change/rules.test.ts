import { describe, expect, it } from 'vitest';
import { reviewRejection } from './rules';
import type { AccessChangeState, ReviewInput } from './types';

const state = (over: Partial<AccessChangeState> = {}): AccessChangeState => ({
  requestId: 1,
  requestType: 'NEW',
  status: 'NEW',
  version: 0,
  reviewerComments: '',
  sysaidTicket: '',
  lastModifiedBy: null,
  accessApplied: false,
  ...over,
});
const review = (over: Partial<ReviewInput> = {}): ReviewInput => ({
  expectedVersion: 0,
  requestStatus: 'IN_PROGRESS',
  reviewerComments: '',
  sysaidTicket: '',
  actor: { userId: 9, username: 'reviewer', permissions: ['WRITE_USERS', 'READ_USERS'] },
  ...over,
});

describe('reviewRejection', () => {
  it('accepts a legal move at the current version', () => {
    expect(reviewRejection(state(), review(), false)).toBeNull();
  });

  it('rejects a reviewer without WRITE_USERS', () => {
    const r = review({ actor: { userId: 9, username: 'ro', permissions: ['READ_USERS'] } });
    expect(reviewRejection(state(), r, false)?.type).toBe('PERMISSION_DENIED');
  });

  it('rejects a stale version and a concurrent save', () => {
    expect(reviewRejection(state({ version: 2 }), review({ expectedVersion: 1 }), false)?.type).toBe('STALE_VERSION');
    expect(reviewRejection(state(), review(), true)?.type).toBe('REVIEW_IN_PROGRESS');
  });

  it('rejects moves out of a resolved status and back to NEW', () => {
    expect(reviewRejection(state({ status: 'APPROVED' }), review(), false)?.type).toBe('ILLEGAL_TRANSITION');
    expect(reviewRejection(state({ status: 'IN_PROGRESS' }), review({ requestStatus: 'NEW' }), false)?.type).toBe(
      'ILLEGAL_TRANSITION',
    );
  });

  it('answers NO_CHANGES when nothing differs, but accepts a comment-only save', () => {
    expect(reviewRejection(state({ status: 'IN_PROGRESS' }), review(), false)?.type).toBe('NO_CHANGES');
    expect(
      reviewRejection(state({ status: 'IN_PROGRESS' }), review({ reviewerComments: 'called site' }), false),
    ).toBeNull();
  });
});
