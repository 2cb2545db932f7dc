/** The dashboard's 'My requests': the status of each request, the open approval stage under it (never in its place). */
import type { DashboardRequest } from '@portal/contract';
import { screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mockApi, reply } from '../testing/mockApi';
import { renderRoute } from '../testing/render';
import { MyRequestsSection } from './MyRequestsSection';

const request = (patch: Partial<DashboardRequest> = {}): DashboardRequest => ({
  userRequestType: 'ACCESS_CHANGE',
  id: 7,
  requestType: 'NEW',
  requestStatus: 'PENDING_REVIEW',
  dateSubmitted: '2026-01-02T03:04:05Z',
  lastModified: '2026-01-02T03:04:05Z',
  subjectName: 'Uma Ser',
  ...patch,
});

// mantine-datatable renders a cell only when its column's media query matches (see AwaitingApprovalPage.test).
const stubbedMatchMedia = window.matchMedia;
beforeEach(() => {
  window.matchMedia = (query: string) => ({ ...stubbedMatchMedia(query), matches: query === '' });
});
afterEach(() => {
  window.matchMedia = stubbedMatchMedia;
});

describe('my requests', { timeout: 60_000 }, () => {
  it("shows an open stage under the request's status, and no line for a request without one", async () => {
    mockApi({
      'GET /rest/secure/dashboard/requests': () =>
        reply(200, {
          open: [
            request({ openStage: { stage: 1, stages: 2, group: 'LAO_STAFF' } }),
            request({ id: 8, requestType: 'CHANGE', requestStatus: 'NEW', subjectName: 'Ann Other' }),
          ],
          decisions: [],
        }),
    });
    renderRoute({ path: '/', url: '/', element: <MyRequestsSection /> });
    const table = await screen.findByRole('table', { name: 'My open requests' });
    const staged = within(table).getByRole('row', { name: /Uma Ser/ });
    expect(within(staged).getByText('Pending Review')).toBeInTheDocument();
    expect(within(staged).getByText('Stage 1 of 2: LAO staff')).toBeInTheDocument();
    const plain = within(table).getByRole('row', { name: /Ann Other/ });
    expect(within(plain).getByText('New')).toBeInTheDocument();
    expect(within(plain).queryByText(/^Stage \d/)).toBeNull();
    expect(screen.getByTestId('open-requests-count')).toHaveTextContent('2');
  });
});
