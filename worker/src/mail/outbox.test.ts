// The outbox row's secrets (issue 21 case 6): the same on every attempt of one mail, apart for anything else.
import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { rowSecret } from './outbox';

const KEY = 'k'.repeat(48);
const row = { key: 'registration-7:mail', createdAt: '2026-11-26T10:00:00.123' };

describe('rowSecret', () => {
  it('is the same for the same key, row and purpose: every attempt renders the same link', () => {
    expect(rowSecret(KEY, { ...row }, 'SET_INITIAL')).toBe(rowSecret(KEY, row, 'SET_INITIAL'));
  });

  it('is a 32-byte HMAC-SHA-256, base64url: the shape of a link hash', () => {
    expect(rowSecret(KEY, row, 'SET_INITIAL')).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });

  it('differs with the server key, the row key, the row creation time and the purpose', () => {
    const base = rowSecret(KEY, row, 'SET_INITIAL');
    const others = [
      rowSecret('x'.repeat(48), row, 'SET_INITIAL'),
      rowSecret(KEY, { ...row, key: 'registration-8:mail' }, 'SET_INITIAL'),
      // A database restored from a backup may reuse the key; not the creation time.
      rowSecret(KEY, { ...row, createdAt: '2026-11-27T09:00:00.001' }, 'SET_INITIAL'),
      rowSecret(KEY, row, 'RESET'),
    ];
    expect(new Set([base, ...others]).size).toBe(5);
  });

  it('cannot be shifted across fields by moving a separator', () => {
    const a = rowSecret(KEY, { key: 'a:b', createdAt: 'c' }, 'p');
    const b = rowSecret(KEY, { key: 'a', createdAt: 'b:c' }, 'p');
    expect(a).not.toBe(b);
  });

  it('is no bare HMAC of the row key (a secret of another use of the key cannot be replayed)', () => {
    expect(rowSecret(KEY, row, 'SET_INITIAL')).not.toBe(createHmac('sha256', KEY).update(row.key).digest('base64url'));
  });
});
