/** 'Awaiting my approval': the rows ('Stage n of m', the group, 'Overdue'), the page asked for, the empty state. */
import { APPROVAL_TEXTS, type AwaitingApprovalRow } from '@portal/contract';
import { screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mockApi, pageOf, reply } from '../../testing/mockApi';
import { renderRoute } from '../../testing/render';
import { AWAITING_PATH } from './api';
import { AwaitingApprovalPage } from './AwaitingApprovalPage';

const row = (patch: Partial<AwaitingApprovalRow> = {}): AwaitingApprovalRow => ({
  id: 7,
  requestType: 'NEW',
  stage: 1,
  stages: 2,
  group: 'LAO_STAFF',
  escalated: false,
  firstName: 'Uma',
  lastName: 'Ser',
  email: 'uma@portal.test',
  roleNames: ['Investigator'],
  dateSubmitted: '2026-01-02T03:04:05Z',
  stageOpenedAt: '2026-01-02T03:04:05Z',
  deadlineAt: '2026-01-09T03:04:05Z',
  ...patch,
});

const render = () =>
  renderRoute({
    path: '/app/approvals',
    url: '/app/approvals',
    element: <AwaitingApprovalPage />,
    otherRoutes: [{ path: '/app/approvals/:id', element: <p>Stage decision</p> }],
  });

// mantine-datatable renders a cell only when its column's media query matches, and a column without one asks
// for the empty query; jsdom's stub (testing/setup.ts) matches nothing, so here the empty query matches.
const stubbedMatchMedia = window.matchMedia;
beforeEach(() => {
  window.matchMedia = (query: string) => ({ ...stubbedMatchMedia(query), matches: query === '' });
});
afterEach(() => {
  window.matchMedia = stubbedMatchMedia;
});

describe('awaiting my approval', { timeout: 60_000 }, () => {
  it('shows each row: the stage of the stages, the group, Overdue past the deadline; the name opens it', async () => {
    mockApi({ [`GET ${AWAITING_PATH}`]: () => reply(200, pageOf([row()])) });
    const { user } = render();
    const table = await screen.findByRole('table', { name: 'Requests awaiting my approval' });
    expect(await within(table).findByText('Stage 1 of 2')).toBeInTheDocument();
    expect(within(table).getByText('LAO staff')).toBeInTheDocument();
    expect(within(table).getByText('Investigator')).toBeInTheDocument();
    expect(within(table).getByText(APPROVAL_TEXTS.overdue)).toBeInTheDocument();
    await user.click(within(table).getByRole('link', { name: 'Uma Ser' }));
    expect(await screen.findByText('Stage decision')).toBeInTheDocument();
  });

  it('opens a row from the keyboard: each row has one link, reached by Tab and followed with Enter', async () => {
    mockApi({ [`GET ${AWAITING_PATH}`]: () => reply(200, pageOf([row(), row({ id: 8, firstName: 'Ann' })])) });
    const { user } = render();
    const table = await screen.findByRole('table', { name: 'Requests awaiting my approval' });
    await within(table).findByText('Ann Ser');
    const bodyRows = within(table).getAllByRole('row').slice(1);
    expect(
      bodyRows.map((r) =>
        within(r)
          .getAllByRole('link')
          .map((a) => a.getAttribute('href')),
      ),
    ).toEqual([['/app/approvals/7'], ['/app/approvals/8']]);
    const link = within(table).getByRole('link', { name: 'Uma Ser' });
    for (let i = 0; i < 30 && document.activeElement !== link; i++) await user.tab();
    expect(link).toHaveFocus();
    await user.keyboard('{Enter}');
    expect(await screen.findByText('Stage decision')).toBeInTheDocument();
  });

  it('asks for the first page and shows what arrived', async () => {
    const api = mockApi({ [`GET ${AWAITING_PATH}`]: () => reply(200, pageOf([row()])) });
    render();
    // mantine-datatable lays its rows out only in a real browser: the cells are checked by
    // tests/e2e/approval-policy.spec.ts; here the counter shows what arrived.
    expect(await screen.findByText('1 of 1 records shown')).toBeInTheDocument();
    expect(screen.getByRole('table', { name: 'Requests awaiting my approval' })).toBeInTheDocument();
    expect(new URLSearchParams(api.callsTo(`GET ${AWAITING_PATH}`)[0]!.search).get('page')).toBe('1');
  });

  it('says when nothing waits', async () => {
    mockApi({ [`GET ${AWAITING_PATH}`]: () => reply(200, pageOf([])) });
    render();
    expect(await screen.findByText(APPROVAL_TEXTS.awaitingEmpty)).toBeInTheDocument();
  });
});
