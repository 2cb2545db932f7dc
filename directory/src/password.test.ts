import crypto from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { escapeDnValue, escapeFilterValue } from './config';
import { sshaHash } from './password';

describe('sshaHash', () => {
  it('produces {SSHA} base64(sha1(password + salt) + salt)', () => {
    const salt = Buffer.from('0011223344556677', 'hex');
    const value = sshaHash('s3cret', salt);
    const raw = Buffer.from(value.replace('{SSHA}', ''), 'base64');
    expect(raw.subarray(20)).toEqual(salt);
    expect(raw.subarray(0, 20)).toEqual(crypto.createHash('sha1').update('s3cret').update(salt).digest());
  });

  it('salts each hash differently', () => {
    expect(sshaHash('same')).not.toBe(sshaHash('same'));
  });
});

describe('LDAP escaping', () => {
  it('escapes filter metacharacters (RFC 4515)', () => {
    expect(escapeFilterValue('a*(b)\\')).toBe('a\\2a\\28b\\29\\5c');
  });
  it('escapes DN specials (RFC 4514)', () => {
    expect(escapeDnValue('smith, john+x')).toBe('smith\\, john\\+x');
  });
});
