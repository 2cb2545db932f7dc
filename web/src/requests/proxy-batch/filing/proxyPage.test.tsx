import { describe, expect, it } from 'vitest';
import type { Profile, UserListRow } from '@portal/contract';
import { parseChoice, selectableUsers, siteChoiceGroups } from './proxyPage';

const row = (id: number, email: string) => ({ id, email }) as UserListRow;
const sites = {
  laos: [
    { value: 'L1', label: 'L1 - One' },
    { value: 'L2', label: 'L2 - Two' },
  ],
  aos: [
    { value: 'A1', label: 'A1 - One' },
    { value: 'A2', label: 'A2 - Two' },
  ],
  aoLabels: new Map(),
};
const profile = (forAllUsers: boolean) =>
  ({
    canSubmitProxyAccessChangeRequests: { canSubmit: true, forAllUsers },
    userAccesses: [{ laoIds: ['L2'], siteCodes: ['A1'] }],
  }) as unknown as Profile;

describe('the proxy page rules (001 §2.7, §5)', () => {
  it('drops the signed-in user and duplicate emails, keeping the first', () => {
    const rows = [row(1, 'a@x.org'), row(2, 'B@x.org'), row(3, 'b@X.org'), row(4, 'c@x.org')];
    expect(selectableUsers(rows, 4).map((r) => r.id)).toEqual([1, 2]);
  });

  it("offers only the proxy's own sites without forAllUsers, everything and 'unaffiliated users' with it", () => {
    expect(siteChoiceGroups(profile(false), sites)).toEqual([
      { group: 'LAOs', items: [{ value: 'lao:L2', label: 'L2 - Two' }] },
      { group: 'AOs', items: [{ value: 'ao:A1', label: 'A1 - One' }] },
    ]);
    const all = siteChoiceGroups(profile(true), sites);
    expect(all.flatMap((g) => g.items.map((i) => i.value))).toEqual([
      'lao:L1',
      'lao:L2',
      'ao:A1',
      'ao:A2',
      'unaffiliated',
    ]);
  });

  it('reads a picked value back', () => {
    expect(parseChoice('lao:L2')).toEqual({ kind: 'lao', code: 'L2' });
    expect(parseChoice('unaffiliated')).toEqual({ kind: 'unaffiliated' });
    expect(parseChoice(null)).toBeNull();
  });
});
