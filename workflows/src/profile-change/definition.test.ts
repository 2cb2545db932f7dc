import { describe, expect, it } from 'vitest';
import type { RequestStatus } from '@portal/contract/statuses';
import { reviewRejection } from '../lifecycle/rules';
import type { LifecycleState, ReviewInput } from '../lifecycle/types';
import { profileChangeDefinition as def, profileChangeWorkflowId } from './definition';

const state = (over: Partial<LifecycleState<RequestStatus>> = {}): LifecycleState<RequestStatus> => ({
  kind: 'PROFILE_CHANGE',
  requestId: 4,
  status: 'NEW',
  version: 0,
  reviewerComments: '',
  sysaidTicket: '',
  lastModifiedBy: null,
  outsideEffectsRan: false,
  busy: false,
  ...over,
});
const review = (requestStatus: RequestStatus, permissions = ['WRITE_USERS']): ReviewInput<RequestStatus> => ({
  expectedVersion: 0,
  requestStatus,
  reviewerComments: '',
  sysaidTicket: '',
  actor: { userId: 2, username: 'reviewer', permissions },
});

describe('profile-change definition (001 §2.10, §4)', () => {
  it('is profile-change-<id>, reviewed with WRITE_USERS, the directory written before the approving commit', () => {
    expect(profileChangeWorkflowId(12)).toBe('profile-change-12');
    expect(def.outsideEffectsOn).toBe('APPROVED');
    expect(reviewRejection(def, state(), review('APPROVED', ['READ_USERS']))?.type).toBe('PERMISSION_DENIED');
  });

  it('follows the request status table: any status from NEW, nothing once resolved, never back to NEW', () => {
    for (const to of ['IN_PROGRESS', 'PENDING_REVIEW', 'PENDING_OUTSIDE_ACTION', 'APPROVED', 'REJECTED'] as const) {
      expect(reviewRejection(def, state(), review(to))).toBeNull();
    }
    expect(reviewRejection(def, state({ status: 'REJECTED' }), review('APPROVED'))?.type).toBe('ILLEGAL_TRANSITION');
    expect(reviewRejection(def, state({ status: 'IN_PROGRESS' }), review('NEW'))?.type).toBe('ILLEGAL_TRANSITION');
  });

  // The rejection undoes the directory write first (issue 21 case 2).
  it('once the directory may have been written, the approval or any other save may follow', () => {
    const written = state({ outsideEffectsRan: true });
    expect(reviewRejection(def, written, review('REJECTED'))).toBeNull();
    expect(reviewRejection(def, written, review('APPROVED'))).toBeNull();
  });
});
