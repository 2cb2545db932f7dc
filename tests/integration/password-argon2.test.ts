/**
 * Passwords stored with Argon2id (docs/decisions.md "Passwords stored with Argon2id") on the real slapd with
 * its `argon2` module, through the API's sign-in route:
 * - what the portal writes is argon2id at the configured cost, and slapd binds with it;
 * - an {SSHA} value written before is re-hashed at the next successful sign-in, and that is not a password
 *   change: pwdChangedTime, pwdReset and pwdHistory stay as they were (no old value enters the history), and
 *   the history still refuses the earlier passwords, whatever their form;
 * - a wrong password, or a password changed meanwhile, re-hashes nothing;
 * - the sign-in timing entry is re-hashed when its cost is not the current one;
 * - /metrics counts the entries by the form of their stored password.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Attribute, Change, type Client } from 'ldapts';
import {
  ARGON2_DEFAULTS,
  bindAsUser,
  ensureTimingEntry,
  isCurrentHash,
  isRecentPassword,
  sshaHash,
  timingEntryDn,
  upgradePasswordHash,
  userDn,
  withAdmin,
} from '@portal/directory';
import { type Scrape, parsePrometheus } from '../support/prometheus';
import { createTestUser } from './auth-helpers';
import { type TestApi, signInCall, startApi } from './harness';
import { until } from './lifecycle/support';

const TOKEN = 'metrics-token-for-the-argon2-tests';
let api: TestApi;

beforeAll(async () => {
  api = await startApi({ METRICS_TOKEN: TOKEN, PASSWORD_CENSUS_INTERVAL_MS: '0' });
});
afterAll(async () => {
  await api?.close();
});

const ATTRIBUTES = ['userPassword', 'pwdChangedTime', 'pwdHistory', 'pwdReset', 'pwdGraceUseTime'] as const;

/** The password attributes of an entry as the admin reads them (each a sorted list of values). */
async function passwordState(dn: string): Promise<Record<(typeof ATTRIBUTES)[number], string[]>> {
  return withAdmin(api.directory, async (c: Client) => {
    const { searchEntries } = await c.search(dn, {
      scope: 'base',
      filter: '(objectClass=*)',
      attributes: [...ATTRIBUTES],
    });
    const e = searchEntries[0]!;
    return Object.fromEntries(
      ATTRIBUTES.map((a: string) => [
        a,
        ([] as unknown[])
          .concat(e[a] ?? [])
          .map(String)
          .sort(),
      ]),
    ) as Record<(typeof ATTRIBUTES)[number], string[]>;
  });
}

/** Writes `values` as the entry's userPassword, as an older portal did (an admin write: ppolicy keeps history). */
async function writeStored(dn: string, values: string[]): Promise<void> {
  await withAdmin(api.directory, (c) =>
    c.modify(dn, new Change({ operation: 'replace', modification: new Attribute({ type: 'userPassword', values }) })),
  );
}

/** A person whose entry holds `password` as {SSHA}, an earlier {SSHA} password in pwdHistory, and pwdReset. */
async function legacyPerson(tag: string, password: string, earlier: string) {
  const user = await createTestUser(api, tag, { password: earlier });
  const dn = userDn(api.directory, user.username);
  await writeStored(dn, [sshaHash(password)]);
  return { user, dn };
}

describe('what the portal writes', () => {
  it('is argon2id at the configured cost, and slapd binds with it', async () => {
    const user = await createTestUser(api, 'a2new');
    const dn = userDn(api.directory, user.username);
    const [stored] = (await passwordState(dn)).userPassword;
    expect(stored).toMatch(/^\{ARGON2\}\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(await bindAsUser(api.directory, dn, user.password)).toEqual({ ok: true });
    expect(await bindAsUser(api.directory, dn, `${user.password}x`)).toEqual({
      ok: false,
      reason: 'invalidCredentials',
    });
    expect((await signInCall(api.app, user.username, user.password)).statusCode).toBe(200);
  });
});

describe('an {SSHA} password written before', () => {
  it('is re-hashed at the next sign-in, with its age, forced change and history as they were', async () => {
    const password = 'Legacy-pass-1!aA';
    const earlier = 'Earlier-pass-0!aA';
    const { user, dn } = await legacyPerson('a2up', password, earlier);
    const before = await passwordState(dn);
    expect(before.userPassword[0]).toMatch(/^\{SSHA\}/);
    expect(before.pwdReset).toEqual(['TRUE']);
    expect(before.pwdHistory).toHaveLength(1);

    const res = await signInCall(api.app, user.username, password);
    expect(res.statusCode, res.body).toBe(200);
    // pwdReset still says the administrator's password must be changed: the sign-in answers so.
    expect(res.json()).toMatchObject({ expiryState: 'ForceUserToChangePassword' });

    const after = await passwordState(dn);
    expect(after.userPassword).toHaveLength(1);
    expect(isCurrentHash(after.userPassword[0]!, ARGON2_DEFAULTS)).toBe(true);
    expect({ ...after, userPassword: [] }).toEqual({ ...before, userPassword: [] });
    expect(await bindAsUser(api.directory, dn, password)).toEqual({ ok: true });
    // The history understands both forms: the earlier (argon2id, then {SSHA} in pwdHistory) and the current one.
    expect(await isRecentPassword(api.directory, user.username, earlier, 5)).toBe(true);
    expect(await isRecentPassword(api.directory, user.username, password, 5)).toBe(true);
    expect(await isRecentPassword(api.directory, user.username, 'Never-used-9!aA', 5)).toBe(false);

    // Signed in again, nothing is written: the value is current.
    expect((await signInCall(api.app, user.username, password)).statusCode).toBe(200);
    expect(await passwordState(dn)).toEqual(after);
  });

  it('is left as it is by a wrong password, and by a password that is no longer the stored one', async () => {
    const password = 'Legacy-pass-2!aA';
    const { user, dn } = await legacyPerson('a2wrong', password, 'Earlier-pass-2!aA');
    const before = await passwordState(dn);
    expect((await signInCall(api.app, user.username, 'Wrong-pass-2!aA')).statusCode).toBe(401);
    expect((await passwordState(dn)).userPassword).toEqual(before.userPassword);
    // A change in between (the value read is no longer this password): the upgrade writes nothing.
    expect(await upgradePasswordHash(api.directory, dn, 'Other-pass-2!aA')).toBe('changed');
    const now = await passwordState(dn);
    expect(now.userPassword).toEqual(before.userPassword);
    expect(now.pwdHistory).toEqual(before.pwdHistory);
    expect(await upgradePasswordHash(api.directory, dn, password)).toBe('upgraded');
    expect(await upgradePasswordHash(api.directory, dn, password)).toBe('current');
  });
});

describe('the sign-in timing entry', () => {
  it('is re-hashed when its stored value is not argon2id at the configured cost', async () => {
    const dn = timingEntryDn(api.directory);
    await writeStored(dn, [sshaHash('anything at all')]);
    expect(await ensureTimingEntry(api.directory)).toBe('rehashed');
    const [stored] = (await passwordState(dn)).userPassword;
    expect(isCurrentHash(stored!, ARGON2_DEFAULTS)).toBe(true);
    expect(await ensureTimingEntry(api.directory)).toBe('current');
  });
});

describe('/metrics', () => {
  it('counts the person entries by the form of their stored password', async () => {
    const { dn } = await legacyPerson('a2count', 'Legacy-pass-3!aA', 'Earlier-pass-3!aA');
    expect((await passwordState(dn)).userPassword[0]).toMatch(/^\{SSHA\}/);
    const scrape = async () => {
      const res = await api.app.inject({
        method: 'GET',
        url: '/metrics',
        headers: { authorization: `Bearer ${TOKEN}` },
      });
      expect(res.statusCode, res.body).toBe(200);
      return parsePrometheus(res.body);
    };
    const value = (s: Scrape, form: string) => s.value('portal_directory_password_hashes', { form });
    let last: Scrape | undefined;
    await until(async () => {
      last = await scrape();
      return (value(last, 'ssha') ?? 0) >= 1 && (value(last, 'argon2id') ?? 0) >= 1;
    }, 'the count of stored password forms on /metrics');
    for (const form of ['argon2id_other_cost', 'argon2i', 'sha', 'other']) expect(value(last!, form)).toBeDefined();
  });
});
