/**
 * The audit rows of a person's access read as provenance events (issue 25 'Why does this person have this
 * access'): the rows the integration test does not write through the API (the expiry's, a removal by a
 * campaign) and rows whose `after` does not name record ids (ignored, never a failure).
 */
import { describe, expect, it } from 'vitest';
import { eventsOfRow } from './provenance';

const at = new Date('2026-11-20T10:00:00.000Z');
const row = (action: string, after: unknown, actorUsername = 'system') => ({
  id: 1n,
  at,
  actorUsername,
  action,
  after,
  workflowId: 'wf-1',
});
const requests = new Map([
  [7, { batchId: null, reviewerComments: 'ok' }],
  [8, { batchId: 3, reviewerComments: '' }],
]);

describe('eventsOfRow', () => {
  it("tells the expiry's removal on its new version, with the end date", () => {
    const events = eventsOfRow(
      row('ACCESS_EXPIRED', { priorId: 10, newId: 11, roleName: 'Monitor', accessEndDate: '2026-11-19' }),
      requests,
    );
    expect(events).toEqual([
      {
        recordId: 11,
        writes: true,
        event: expect.objectContaining({
          label: 'Expired',
          source: 'EXPIRY',
          comment: 'The access ended on 2026-11-19.',
          at: at.toISOString(),
        }),
      },
    ]);
  });

  it("tells a campaign's removal on the record it removed, by the reviewer", () => {
    const after = { accessId: 10, campaignId: 5, campaignName: 'Q4', decision: 'REMOVE', comment: 'left', newId: 12 };
    const [one] = eventsOfRow(row('ACCESS_REMOVED_BY_REVIEW', after, 'laostaff'), requests);
    expect(one).toMatchObject({
      recordId: 10,
      writes: false,
      event: { label: 'Removed by review', source: 'CAMPAIGN', campaignId: 5, actorUsername: 'laostaff' },
    });
  });

  it('tells each change of a write: a review of a request, of a proxy batch request, an admin edit', () => {
    const changes = [
      { roleName: 'A', priorId: null, newId: 20, inactive: false },
      { roleName: 'B', priorId: 15, newId: 21, inactive: false },
      { roleName: 'C', priorId: 16, newId: 22, inactive: true },
    ];
    const reviewed = eventsOfRow(row('ACCESS_UPDATED', { requestId: 7, changes }, 'reviewer'), requests);
    expect(reviewed.map((e) => [e.recordId, e.event.label, e.event.source, e.event.comment])).toEqual([
      [20, 'Granted', 'REQUEST', 'ok'],
      [21, 'Changed', 'REQUEST', 'ok'],
      [22, 'Removed', 'REQUEST', 'ok'],
    ]);
    const batch = eventsOfRow(row('ACCESS_UPDATED', { requestId: 8, changes: changes.slice(0, 1) }), requests);
    expect(batch[0]!.event).toMatchObject({ source: 'PROXY_BATCH', batchId: 3, requestId: 8, comment: null });
    const admin = eventsOfRow(row('ACCESS_REPLACED', { changes: changes.slice(1, 2) }, 'admin'), requests);
    expect(admin[0]!.event).toMatchObject({ source: 'ADMIN_EDIT', label: 'Changed', requestId: null });
  });

  it('ignores rows that name no record (other actions, an unexpected after)', () => {
    expect(eventsOfRow(row('ACCESS_UPDATED', { roles: ['A'] }), requests)).toEqual([]);
    expect(eventsOfRow(row('ACCESS_REVIEW_DECIDED', null), requests)).toEqual([]);
    expect(eventsOfRow(row('USER_CREATED', { registrationId: 'x' }), requests)).toEqual([]);
    expect(eventsOfRow(row('MAIL_FAILED', { accessId: 1 }), requests)).toEqual([]);
  });
});
