import { describe, expect, it } from 'vitest';
import { ScimError, retryAfterMs } from './client';

describe('retryAfterMs', () => {
  it('reads delay-seconds and HTTP dates (RFC 9110 §10.2.3), null for anything else', () => {
    expect(retryAfterMs('5')).toBe(5000);
    const now = Date.parse('2026-12-01T10:00:00Z');
    expect(retryAfterMs('Tue, 01 Dec 2026 10:00:30 GMT', now)).toBe(30_000);
    expect(retryAfterMs('Tue, 01 Dec 2026 09:00:00 GMT', now)).toBe(0);
    expect(retryAfterMs(null)).toBeNull();
    expect(retryAfterMs('soon')).toBeNull();
  });
});

describe('ScimError.retryable', () => {
  it('retries no answer, 5xx, 408 and 429; not a refusal', () => {
    expect([0, 500, 503, 408, 429].map((s) => new ScimError('x', s).retryable)).toEqual([true, true, true, true, true]);
    expect([400, 401, 403, 404, 409].map((s) => new ScimError('x', s).retryable)).toEqual([
      false,
      false,
      false,
      false,
      false,
    ]);
  });
});
