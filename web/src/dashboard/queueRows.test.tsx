/**
 * The reviewers' queue lines (one per kind and status, counts by age) and the trusted view address of a
 * Tableau visualization (000 §4 Visualization helper: toolbar hidden, tabs shown).
 */
import { describe, expect, it } from 'vitest';
import { queueLines } from './queueRows';
import { trustedViewUrl } from './VisualizationsSection';

describe('queueLines', () => {
  it('pivots the groups into one line per kind and status, with totals and the oldest filing', () => {
    const lines = queueLines([
      {
        userRequestType: 'ACCESS_CHANGE',
        requestStatus: 'NEW',
        age: 'UNDER_1_DAY',
        count: 2,
        oldest: '2026-11-21T10:00:00.000Z',
      },
      {
        userRequestType: 'ACCESS_CHANGE',
        requestStatus: 'NEW',
        age: 'OVER_7_DAYS',
        count: 3,
        oldest: '2026-10-01T10:00:00.000Z',
      },
      {
        userRequestType: 'REGISTRATION',
        requestStatus: 'PENDING',
        age: 'DAYS_1_TO_3',
        count: 1,
        oldest: '2026-11-20T10:00:00.000Z',
      },
    ]);
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatchObject({
      label: 'Access Change: New',
      UNDER_1_DAY: 2,
      DAYS_1_TO_3: 0,
      DAYS_3_TO_7: 0,
      OVER_7_DAYS: 3,
      total: 5,
      oldest: '2026-10-01T10:00:00.000Z',
    });
    expect(lines[1]).toMatchObject({ label: 'Registration: Pending', DAYS_1_TO_3: 1, total: 1 });
  });
});

describe('trustedViewUrl', () => {
  const viz = { id: 1, filePath: 'Requests/Over view', title: 'T', description: '', tableauSite: 'network' };
  it('redeems the ticket on its site, toolbar hidden and tabs shown', () => {
    const token = {
      tableauToken: 'a+b:c',
      tableauInternalIp: 'x',
      tableauExternalUrl: 'https://bi.test',
      targetSite: 'network',
    };
    expect(trustedViewUrl(token, viz)).toBe(
      'https://bi.test/trusted/a%2Bb%3Ac/t/network/views/Requests/Over%20view?:embed=y&:toolbar=no&:tabs=yes',
    );
    expect(trustedViewUrl({ ...token, targetSite: '' }, viz)).toBe(
      'https://bi.test/trusted/a%2Bb%3Ac/views/Requests/Over%20view?:embed=y&:toolbar=no&:tabs=yes',
    );
  });
});
