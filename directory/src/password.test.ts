import crypto from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { escapeDnValue, escapeFilterValue } from './config';
import {
  ARGON2_DEFAULTS,
  argon2Hash,
  argon2ParamsOf,
  hashScheme,
  historyValue,
  isCurrentHash,
  sshaHash,
  verifyPasswordHash,
} from './password';

/** Written by slapd's own module (`slappasswd -o module-load="argon2 m=19456 t=2 p=1" -h {ARGON2} -s test`). */
const SLAPD_ARGON2I =
  '{ARGON2}$argon2i$v=19$m=19456,t=2,p=1$cbtsiE2lS4Se6zju9Bq/lA$vY+yxcKkGil9XJ+Q04UvH3/KzmOakfWAIbS73kOfOLU';
/** A cheap cost for the tests that only check the form. */
const LIGHT = { memoryKib: 7_168, timeCost: 5, parallelism: 1 };

describe('argon2Hash', () => {
  it('writes {ARGON2} + an argon2id PHC string at the given cost, salted each time', async () => {
    const value = await argon2Hash('s3cret', LIGHT);
    expect(value).toMatch(/^\{ARGON2\}\$argon2id\$v=19\$m=7168,t=5,p=1\$[A-Za-z0-9+/]{22}\$[A-Za-z0-9+/]{43}$/);
    expect(await argon2Hash('s3cret', LIGHT)).not.toBe(value);
    expect(hashScheme(value)).toBe('ARGON2ID');
    expect(isCurrentHash(value, LIGHT)).toBe(true);
    expect(isCurrentHash(value, ARGON2_DEFAULTS)).toBe(false);
  });
});

describe('verifyPasswordHash', () => {
  it("checks the portal's argon2id, slapd's argon2i and the legacy {SSHA} and {SHA}", async () => {
    const sha = `{SHA}${crypto.createHash('sha1').update('test').digest('base64')}`;
    for (const stored of [await argon2Hash('test', LIGHT), SLAPD_ARGON2I, sshaHash('test'), sha]) {
      expect(await verifyPasswordHash('test', stored), stored).toBe(true);
      expect(await verifyPasswordHash('Test', stored), stored).toBe(false);
    }
    expect(hashScheme(SLAPD_ARGON2I)).toBe('ARGON2I');
    expect(isCurrentHash(SLAPD_ARGON2I, ARGON2_DEFAULTS)).toBe(false);
  });

  it('never matches a value it does not understand or a malformed one', async () => {
    for (const stored of ['test', '{CLEARTEXT}test', '{ARGON2}$argon2id$v=19$garbage', '{SSHA}AAAA']) {
      expect(await verifyPasswordHash('test', stored), stored).toBe(false);
    }
  });

  it('reads the value of a pwdHistory entry', async () => {
    const stored = await argon2Hash('old', LIGHT);
    const entry = `20261202035315Z#1.3.6.1.4.1.1466.115.121.1.40#${stored.length}#${stored}`;
    expect(await verifyPasswordHash('old', historyValue(entry))).toBe(true);
  });
});

describe('argon2ParamsOf', () => {
  it("defaults to OWASP's 19,456 KiB × 2 and refuses a cost under OWASP's weakest row", () => {
    expect(argon2ParamsOf({})).toEqual({ memoryKib: 19_456, timeCost: 2, parallelism: 1 });
    expect(argon2ParamsOf({ PASSWORD_ARGON2_MEMORY_KIB: 47_104, PASSWORD_ARGON2_TIME_COST: 1 }).memoryKib).toBe(47_104);
    expect(() => argon2ParamsOf({ PASSWORD_ARGON2_MEMORY_KIB: 7_168, PASSWORD_ARGON2_TIME_COST: 2 })).toThrow(
      /at least 35840/,
    );
  });
});

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
