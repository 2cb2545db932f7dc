/**
 * An access record's history (issue 25 'Why does this person have this access') on mocked HTTP: the events of
 * the record asked for with their source, actor and comment; one call shared by two records of a person; the
 * empty, loading and failed states.
 */
import type { AccessProvenance as Provenance, ProvenanceEvent } from '@portal/contract';
import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { mockApi, reply, sequence, type Handler } from '../testing/mockApi';
import { renderRoute } from '../testing/render';
import { AccessHistorySection, AccessProvenance, PROVENANCE_TEXTS } from './AccessProvenance';

const URL_KEY = 'GET /rest/secure/user_access/user/7/provenance';

const event = (over: Partial<ProvenanceEvent>): ProvenanceEvent => ({
  at: '2026-11-02T14:30:00.000Z',
  label: 'Granted',
  source: 'REQUEST',
  actorUsername: 'admin',
  requestId: null,
  batchId: null,
  campaignId: null,
  campaignName: null,
  workflowId: null,
  comment: null,
  ...over,
});

const answer: Provenance = {
  records: [
    {
      accessId: 41,
      roleName: 'Data Manager',
      events: [
        event({ label: 'Granted', source: 'REQUEST', requestId: 12, actorUsername: 'reviewer1', comment: 'ok' }),
        event({ label: 'Changed', source: 'PROXY_BATCH', requestId: 15, batchId: 3, actorUsername: 'admin' }),
        event({ label: 'Changed', source: 'ADMIN_EDIT', actorUsername: 'admin2' }),
        event({
          label: 'Kept in review',
          source: 'CAMPAIGN',
          campaignId: 9,
          campaignName: 'Q4 review',
          actorUsername: 'laostaff',
          comment: 'still on the study',
        }),
      ],
    },
    { accessId: 42, roleName: 'Monitor', events: [] },
    {
      accessId: 43,
      roleName: 'Safety Reviewer',
      events: [
        event({ label: 'Granted', source: 'REGISTRATION', requestId: 5, actorUsername: 'reviewer1' }),
        event({ label: 'Changed (no audit row)', source: 'OTHER', actorUsername: 'seed' }),
        event({
          label: 'Expired',
          source: 'EXPIRY',
          actorUsername: 'system',
          comment: 'The access ended on 2026-11-01.',
        }),
      ],
    },
  ],
};

function renderHistory(handler: Handler, ids: number[] = [41], permissions: ('USER' | 'READ_USERS')[] = ['USER']) {
  const api = mockApi({ [URL_KEY]: handler });
  const element = (
    <>
      {ids.map((id) => (
        <AccessProvenance key={id} portalUserId={7} accessId={id} />
      ))}
    </>
  );
  return { ...renderRoute({ path: '/', url: '/', element, permissions }), api };
}

describe('AccessProvenance', () => {
  it("lists the record's events oldest first with their source, actor and comment", async () => {
    renderHistory(() => reply(200, answer), [41], ['USER', 'READ_USERS']);
    const list = await screen.findByRole('list', { name: PROVENANCE_TEXTS.listLabel('Data Manager') });
    const items = within(list).getAllByRole('listitem');
    expect(items).toHaveLength(4);
    expect(items[0]).toHaveTextContent(/Granted, from access-change request #12, by reviewer1/);
    expect(items[0]).toHaveTextContent('Comment: ok');
    expect(within(items[0]!).getByRole('link', { name: 'access-change request #12' })).toHaveAttribute(
      'href',
      '/app/user-requests/access-change/12',
    );
    expect(items[1]).toHaveTextContent(/Changed, from proxy batch #3 \(access-change request #15\), by admin/);
    expect(within(items[1]!).getByRole('link', { name: 'proxy batch #3' })).toHaveAttribute(
      'href',
      '/app/proxy-access-change-request?batch=3',
    );
    expect(items[2]).toHaveTextContent(/Changed, from an administrator's edit of the Access tab, by admin2/);
    expect(items[3]).toHaveTextContent(/Kept in review, from access review campaign ‘Q4 review’ #9, by laostaff/);
    expect(items[3]).toHaveTextContent('Comment: still on the study');
    expect(items[0]!.querySelector('time')).toHaveAttribute('datetime', '2026-11-02T14:30:00.000Z');
  });

  it('names a registration, a version without an audit row and an expiry', async () => {
    renderHistory(() => reply(200, answer), [43], ['USER', 'READ_USERS']);
    const items = within(await screen.findByRole('list')).getAllByRole('listitem');
    expect(items[0]).toHaveTextContent(/Granted, from registration #5, by reviewer1/);
    expect(screen.getByRole('link', { name: 'registration #5' })).toHaveAttribute(
      'href',
      '/app/user-requests/registration/5',
    );
    // A reviewer's words, not the audit trail's internals ('no audit row', 'the record itself').
    expect(items[1]).toHaveTextContent(
      /Changed directly on the account \(no request or review on file\), entered by seed/,
    );
    expect(items[1]).not.toHaveTextContent(/audit row|record itself/);
    expect(items[2]).toHaveTextContent(/Expired, from the end date \(access expiry\), by system/);
  });

  it('names the request without a link for a person who may not open reviews', async () => {
    renderHistory(() => reply(200, answer));
    const list = await screen.findByRole('list');
    expect(within(list).getAllByRole('listitem')[0]).toHaveTextContent('access-change request #12');
    expect(within(list).queryByRole('link', { name: 'access-change request #12' })).not.toBeInTheDocument();
  });

  it('reads the person once for all their records and says when a record has no history', async () => {
    const { api } = renderHistory(() => reply(200, answer), [41, 42, 99]);
    expect(await screen.findByRole('list')).toBeInTheDocument();
    expect(screen.getAllByText(PROVENANCE_TEXTS.empty)).toHaveLength(2);
    expect(api.calls.filter((c) => c.path === '/rest/secure/user_access/user/7/provenance')).toHaveLength(1);
  });

  it('shows a loading state, then a failed load with a retry', async () => {
    let release!: (r: Response) => void;
    const { user } = renderHistory(
      sequence(
        () => new Promise<Response>((resolve) => (release = resolve)),
        () => reply(200, answer),
      ),
    );
    expect(await screen.findByRole('status')).toHaveTextContent(PROVENANCE_TEXTS.loading);
    release(reply(500, {}));
    expect(await screen.findByRole('alert')).toHaveTextContent(PROVENANCE_TEXTS.loadFailed);
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('list')).toBeInTheDocument();
  });

  it("the Access tabs' expanders read nothing until one is opened, then show that record's history", async () => {
    const api = mockApi({ [URL_KEY]: () => reply(200, answer) });
    const records = [
      { id: 41, roleName: 'Data Manager' },
      { id: 42, roleName: 'Monitor' },
    ];
    const { user } = renderRoute({
      path: '/',
      url: '/',
      element: <AccessHistorySection portalUserId={7} records={records} headingId="h" />,
    });
    expect(screen.getByRole('heading', { name: PROVENANCE_TEXTS.sectionTitle })).toBeInTheDocument();
    const dm = screen.getByRole('button', { name: PROVENANCE_TEXTS.expander('Data Manager') });
    expect(dm).toHaveAttribute('aria-expanded', 'false');
    expect(api.calls).toHaveLength(0);
    await user.click(dm);
    expect(dm).toHaveAttribute('aria-expanded', 'true');
    const list = await screen.findByRole('list', { name: PROVENANCE_TEXTS.listLabel('Data Manager') });
    expect(within(list).getAllByRole('listitem')[0]).toHaveTextContent(/Granted, from access-change request #12/);
    await user.click(screen.getByRole('button', { name: PROVENANCE_TEXTS.expander('Monitor') }));
    expect(await screen.findByText(PROVENANCE_TEXTS.empty)).toBeInTheDocument();
    expect(api.calls).toHaveLength(1);
  });
});
