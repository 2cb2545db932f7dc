/**
 * Reports (001 §2.11, §8) on mocked HTTP: requests by status for READ_USERS with 'Problem loading "{status}" ...'
 * for a status that fails, the 422 under the date fields, the 403 sentence, and a download saved under the
 * server's file name with the query asked for.
 */
import { ACCESS_REQUEST_MESSAGES, REQUEST_STATUSES } from '@portal/contract';
import { screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { SUPPORT_EMAIL } from '../lib/config';
import { mockApi, reply, type Handler } from '../testing/mockApi';
import { renderRoute } from '../testing/render';
import { ReportsPage } from './ReportsPage';

const REPORT = 'GET /rest/secure/user_access_mod_request/report';

function renderPage(report: Handler, permissions: ('USER' | 'READ_USERS')[] = ['USER', 'READ_USERS']) {
  const statusHandlers = Object.fromEntries(
    REQUEST_STATUSES.map((s) => [
      `GET /rest/secure/user_access_mod_request/status/${s}`,
      () => (s === 'REJECTED' ? reply(500, { message: 'boom' }) : reply(200, { content: [], totalElements: 4 })),
    ]),
  );
  const api = mockApi({ ...statusHandlers, [REPORT]: report });
  return { ...renderRoute({ path: '/app/reports', url: '/app/reports', element: <ReportsPage />, permissions }), api };
}

afterEach(() => vi.restoreAllMocks());

describe('Reports', () => {
  it('counts requests by status and names a status that failed to load', async () => {
    renderPage(() => reply(200, ''));
    const table = await screen.findByRole('table', { name: 'Requests by Status' });
    expect(await within(table).findByText(ACCESS_REQUEST_MESSAGES.loadStatusFailed('REJECTED'))).toBeVisible();
    expect(within(table).getByRole('row', { name: /Approved/ })).toHaveTextContent('4');
  });

  it('shows the 422 under the dates and the 403 sentence, and saves a download under its name', async () => {
    let answer = 0;
    const { user, api } = renderPage(() => {
      answer++;
      if (answer === 1) {
        return reply(422, {
          fieldErrors: { startDate: ['afterEndDate'], endDate: ['beforeStartDate'] },
          globalErrors: [],
        });
      }
      if (answer === 2) return reply(403, { message: 'You are not authorized to view this page' });
      return new Response('\ufeffRequest ID\r\n1\r\n', {
        status: 200,
        headers: {
          'content-type': 'text/csv; charset=utf-8',
          'content-disposition': 'attachment; filename="access-modification-requests_all_all_proxy.csv"',
        },
      });
    }, ['USER']);
    expect(screen.queryByRole('table', { name: 'Requests by Status' })).toBeNull();
    await user.type(screen.getByLabelText(/^Start Date/), '2026-05-02');
    await user.type(screen.getByLabelText(/^End Date/), '2026-05-01');
    await user.click(screen.getByRole('button', { name: 'Download Report' }));
    expect(await screen.findByText('Start Date must be before end date')).toBeVisible();
    expect(screen.getByText('End Date must be after start date')).toBeVisible();
    expect(screen.getByRole('alert')).toHaveTextContent(ACCESS_REQUEST_MESSAGES.reportFailed);
    expect(api.callsTo(REPORT)[0]!.search).toBe('?startDate=2026-05-02&endDate=2026-05-01');

    await user.click(screen.getByRole('button', { name: 'Download Report' }));
    expect(await screen.findByText(ACCESS_REQUEST_MESSAGES.reportForbidden(SUPPORT_EMAIL))).toBeVisible();

    const saved: string[] = [];
    // jsdom has no object URLs and does not navigate links: the file is 'saved' when its link is clicked.
    URL.createObjectURL = vi.fn(() => 'blob:report');
    URL.revokeObjectURL = vi.fn();
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      saved.push(this.download);
    });
    await user.clear(screen.getByLabelText(/^Start Date/));
    await user.clear(screen.getByLabelText(/^End Date/));
    await user.click(screen.getByRole('radio', { name: 'Submitted by proxies for other users' }));
    await user.click(screen.getByRole('button', { name: 'Download Report' }));
    expect(await screen.findByText('Report downloaded: access-modification-requests_all_all_proxy.csv')).toBeVisible();
    expect(saved).toEqual(['access-modification-requests_all_all_proxy.csv']);
    expect(api.callsTo(REPORT)[2]!.search).toBe('?proxyRequests=true');
  });
});
