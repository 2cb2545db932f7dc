import { describe, expect, it } from 'vitest';
import { REQUEST_STATUSES, allowedNextStatuses, canTransition, isResolved } from './statuses';

describe('request status transition table (001 §4)', () => {
  it('locks resolved requests', () => {
    expect(allowedNextStatuses('APPROVED')).toEqual([]);
    expect(allowedNextStatuses('REJECTED')).toEqual([]);
    for (const to of REQUEST_STATUSES) expect(canTransition('APPROVED', to)).toBe(false);
  });

  it('offers NEW only while the request is NEW', () => {
    expect(canTransition('NEW', 'NEW')).toBe(true);
    expect(canTransition('IN_PROGRESS', 'NEW')).toBe(false);
    expect(canTransition('PENDING_REVIEW', 'NEW')).toBe(false);
  });

  it('lets an unresolved request move to any other unresolved or resolved status', () => {
    expect(allowedNextStatuses('IN_PROGRESS')).toEqual([
      'IN_PROGRESS',
      'PENDING_REVIEW',
      'PENDING_OUTSIDE_ACTION',
      'APPROVED',
      'REJECTED',
    ]);
    expect(canTransition('NEW', 'APPROVED')).toBe(true);
    expect(canTransition('PENDING_OUTSIDE_ACTION', 'IN_PROGRESS')).toBe(true);
  });

  it('knows which statuses are resolved', () => {
    expect(REQUEST_STATUSES.filter(isResolved)).toEqual(['APPROVED', 'REJECTED']);
  });
});
