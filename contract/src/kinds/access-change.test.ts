import { describe, expect, it } from 'vitest';
import {
  AccessReportQuerySchema,
  accessReportFileName,
  relationIndex,
  sameAccess,
  sitesForStudies,
  studiesForSites,
  type RelationLike,
} from './access-change';

const rel = (lao: string, site: string, study: string, active = true): RelationLike => ({
  active,
  lao: { laoCode: lao },
  site: { siteCode: site },
  study: { study },
});

// Two LAOs; L1 has sites A1 and A2, L2 has A3. S9 is related only through an inactive row.
const index = relationIndex([
  rel('L1', 'A1', 'S1'),
  rel('L1', 'A1', 'S2'),
  rel('L1', 'A2', 'S3'),
  rel('L2', 'A3', 'S2'),
  rel('L2', 'A3', 'S4'),
  rel('L2', 'A3', 'S9', false),
]);

describe('LAO-site-study filtering (000 §5)', () => {
  it('limits studies to those of the chosen AOs and LAOs, and nothing while none is chosen', () => {
    expect(studiesForSites(index, { laoIds: [], siteCodes: [] })).toBeNull();
    expect(studiesForSites(index, { laoIds: [], siteCodes: ['A1'] })).toEqual(new Set(['S1', 'S2']));
    // An LAO reaches the studies of every one of its sites.
    expect(studiesForSites(index, { laoIds: ['L1'], siteCodes: [] })).toEqual(new Set(['S1', 'S2', 'S3']));
    expect(studiesForSites(index, { laoIds: ['L2'], siteCodes: ['A2'] })).toEqual(new Set(['S2', 'S3', 'S4']));
    expect(studiesForSites(index, { laoIds: [], siteCodes: ['UNKNOWN'] })).toEqual(new Set());
  });

  it('limits AOs and LAOs to those of the chosen studies, ignoring inactive relations', () => {
    expect(sitesForStudies(index, [])).toBeNull();
    expect(sitesForStudies(index, ['S2'])).toEqual({ laoIds: new Set(['L1', 'L2']), siteCodes: new Set(['A1', 'A3']) });
    expect(sitesForStudies(index, ['S3', 'S4'])).toEqual({
      laoIds: new Set(['L1', 'L2']),
      siteCodes: new Set(['A2', 'A3']),
    });
    expect(sitesForStudies(index, ['S9'])).toEqual({ laoIds: new Set(), siteCodes: new Set() });
  });
});

describe('sameAccess (001 §5 no changes)', () => {
  const held = { roleName: 'R', siteCodes: ['A', 'B'], laoIds: [], studyNames: ['S'], systemAccessIds: [1, 2] };
  it('ignores order and duplicates, and sees any added or removed value', () => {
    expect(sameAccess(held, { ...held, siteCodes: ['B', 'A', 'A'], systemAccessIds: [2, 1] })).toBe(true);
    expect(sameAccess(held, { ...held, siteCodes: ['A'] })).toBe(false);
    expect(sameAccess(held, { ...held, laoIds: ['L'] })).toBe(false);
    expect(sameAccess(held, { ...held, studyNames: ['S', 'T'] })).toBe(false);
    expect(sameAccess(held, { ...held, systemAccessIds: [1] })).toBe(false);
    expect(sameAccess(held, { ...held, roleName: 'Q' })).toBe(false);
  });
});

describe('the report query (001 §7)', () => {
  it('takes real days and the proxy flag, and refuses a start after the end on both fields', () => {
    expect(AccessReportQuerySchema.parse({ startDate: '2026-01-31', proxyRequests: 'false' })).toEqual({
      startDate: '2026-01-31',
      proxyRequests: 'false',
    });
    expect(AccessReportQuerySchema.safeParse({ startDate: '2026-02-29' }).success).toBe(false);
    expect(AccessReportQuerySchema.safeParse({ endDate: '26-01-01' }).success).toBe(false);
    const backwards = AccessReportQuerySchema.safeParse({ startDate: '2026-02-02', endDate: '2026-02-01' });
    expect(backwards.error?.issues.map((i) => [i.path.join('.'), i.message])).toEqual([
      ['startDate', 'afterEndDate'],
      ['endDate', 'beforeStartDate'],
    ]);
  });

  it('names the file after the range and the filter', () => {
    expect(accessReportFileName({})).toBe('access-modification-requests_all_all.csv');
    expect(accessReportFileName({ startDate: '2026-01-01', endDate: '2026-01-31', proxyRequests: 'true' })).toBe(
      'access-modification-requests_2026-01-01_2026-01-31_proxy.csv',
    );
  });
});
