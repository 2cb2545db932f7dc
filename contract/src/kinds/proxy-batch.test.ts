import { describe, expect, it } from 'vitest';
import { StartProxyBatchBodySchema, parseProxyComment, proxyComment, userOutcomes } from './proxy-batch';

const MARKER = '[Proxy request]';

const proxy = { name: 'Morgan Liaison', email: 'laostaff@portal.test', id: 5 };
const subject = { name: 'Ann "Q" Subject} subject={"x', email: 'ann@x.org', id: 99 };

describe('the proxy comment marker (000 §3, 001 §6)', () => {
  it('carries proxy and subject as two small JSON objects, then the comment, and reads back', () => {
    const text = proxyComment(MARKER, proxy, subject, 'line one\nline two');
    expect(text.startsWith(`${MARKER} proxy={"name":"Morgan Liaison"`)).toBe(true);
    expect(parseProxyComment(text, [MARKER])).toEqual({ proxy, subject, comment: 'line one\nline two' });
    expect(parseProxyComment(proxyComment(MARKER, proxy, subject, ''), [MARKER])).toEqual({
      proxy,
      subject,
      comment: '',
    });
  });

  it('reads a comment under any configured marker, the current one or an earlier one, and no other', () => {
    const earlier = proxyComment(MARKER, proxy, subject, 'old');
    const current = proxyComment('Filed by proxy:', proxy, subject, 'new');
    const markers = ['Filed by proxy:', MARKER];
    expect(parseProxyComment(current, markers)?.comment).toBe('new');
    expect(parseProxyComment(earlier, markers)?.comment).toBe('old');
    expect(parseProxyComment(earlier, ['Filed by proxy:'])).toBeNull();
  });

  it('finds no marker in an own comment', () => {
    expect(parseProxyComment('Please add me', [MARKER])).toBeNull();
    expect(parseProxyComment(`${MARKER} proxy={broken`, [MARKER])).toBeNull();
  });
});

describe('the batch body (001 §2.7, §5)', () => {
  const block = { roleName: 'Data Manager', studyNames: ['S'], systemAccessIds: [1] };
  it('takes one role block, at least one user and comments up to 250', () => {
    expect(StartProxyBatchBodySchema.safeParse({ portalUserIds: [1], accessControls: [block] }).success).toBe(true);
    expect(StartProxyBatchBodySchema.safeParse({ portalUserIds: [], accessControls: [block] }).success).toBe(false);
    expect(StartProxyBatchBodySchema.safeParse({ portalUserIds: [1], accessControls: [block, block] }).success).toBe(
      false,
    );
    const long = { portalUserIds: [1], accessControls: [block], requesterComments: 'x'.repeat(251) };
    expect(StartProxyBatchBodySchema.safeParse(long).success).toBe(false);
  });
});

describe('userOutcomes (001 §8 run summary, in users)', () => {
  it('counts a user once however many role blocks, failed when any block failed', () => {
    const r = (portalUserId: number, success: boolean | null) => ({ portalUserId, success });
    expect(userOutcomes([r(1, true), r(1, true), r(2, true), r(2, false), r(3, false), r(3, false)])).toEqual({
      users: 3,
      successes: 1,
      failures: 2,
    });
  });

  it('leaves a user still being filed out of both counts', () => {
    expect(
      userOutcomes([
        { portalUserId: 1, success: true },
        { portalUserId: 1, success: null },
      ]),
    ).toEqual({
      users: 1,
      successes: 0,
      failures: 0,
    });
    expect(userOutcomes([])).toEqual({ users: 0, successes: 0, failures: 0 });
  });
});
