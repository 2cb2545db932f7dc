/**
 * The request decision's content builder: what it keeps and in what order (the writer and the verification
 * digest the same content for the same stored facts, whatever order the rows were read in).
 */
import { describe, expect, it } from 'vitest';
import { type RequestDecisionFacts, requestDecisionContent } from './content-requests';
import { signatureMatches } from './verify';
import { canonicalDigest } from './write';

const record = (id: number, removal = false) => ({
  id,
  versionno: 2,
  roleName: `Role ${id}`,
  siteCodes: ['S1'],
  laoIds: ['L1'],
  studyNames: ['Study'],
  systemAccessIds: [3],
  accessEndDate: null,
  removal,
});

const facts: RequestDecisionFacts = {
  kind: 'AccessModRequest',
  requestId: 7,
  version: 3,
  status: 'APPROVED',
  reviewerComments: 'ok',
  sysaidTicket: 'T-1',
  accessRecords: [record(12), record(11, true)],
  portalRoleIds: [5, 2, 5],
  details: { subjectUserId: 4 },
};

describe('requestDecisionContent', () => {
  it('holds the request, its version, status, comments, ticket, records by id and roles sorted once', () => {
    expect(requestDecisionContent(facts)).toEqual({
      kind: 'AccessModRequest',
      requestId: 7,
      version: 3,
      status: 'APPROVED',
      reviewerComments: 'ok',
      sysaidTicket: 'T-1',
      accessRecords: [record(11, true), record(12)],
      portalRoleIds: [2, 5],
      details: { subjectUserId: 4 },
    });
  });

  it('digests alike whatever order the rows were read in; an edited field does not match', () => {
    const signed = requestDecisionContent(facts);
    // As stored: a JSON column.
    const content = JSON.parse(JSON.stringify(signed)) as Parameters<typeof signatureMatches>[0]['content'];
    const row = { content, digest: canonicalDigest(signed) };
    const reread = { ...facts, accessRecords: [...facts.accessRecords].reverse(), portalRoleIds: [5, 2] };
    expect(signatureMatches(row, requestDecisionContent(reread))).toBe(true);
    expect(signatureMatches(row, requestDecisionContent({ ...facts, reviewerComments: 'x' }))).toBe(false);
    expect(signatureMatches(row, requestDecisionContent({ ...facts, accessRecords: [record(11), record(12)] }))).toBe(
      false,
    );
  });
});
