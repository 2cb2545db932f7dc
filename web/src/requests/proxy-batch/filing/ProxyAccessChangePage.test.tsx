/**
 * 'Request Access-Change for Other Users' (001 §2.7, §8): without the right the spec's sentence; a running batch
 * found on entry is re-attached (its id in the URL) and followed by polling until the summary alert; an aborted
 * batch says 'Access-Change Request NOT Submitted'; the form stays disabled until a user is selected.
 */
import { PROXY_MESSAGES, type Profile, type ProxyBatchDetail } from '@portal/contract';
import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { mockApi, reply, sequence } from '../../../testing/mockApi';
import { laoStaff, profileFixture } from '../../../testing/profileFixtures';
import { referenceHandlers } from '../../../testing/referenceFixtures';
import { renderRoute } from '../../../testing/render';
import { ProxyAccessChangePage } from './ProxyAccessChangePage';

const BASE = '/rest/secure/user_access_mod_request/proxy_batch';

const profile = (canSubmit: boolean): Profile =>
  profileFixture({
    ...laoStaff,
    canSubmitProxyAccessChangeRequests: { canSubmit, forAllUsers: canSubmit },
  });

const batch = (over: Partial<ProxyBatchDetail> & { processed: number }): ProxyBatchDetail => ({
  id: 7,
  workflowId: 'proxy-batch-7',
  status: 'RUNNING',
  proxyUserId: 40,
  accessControls: [],
  requesterComments: '',
  sysdat: '2026-11-22T03:00:00.000Z',
  finishedAt: null,
  summary: {
    abortedProcessing: false,
    abortStatusCode: null,
    abortStatusText: null,
    abortRequestNum: null,
    totalRequests: 2,
    numSuccesses: over.processed,
    numFailures: 0,
  },
  results: [1, 2].map((n) => ({
    requestNum: n,
    blockNum: 1,
    success: n <= over.processed ? true : null,
    activeRequestAlreadyExistsForUser: false,
    responseStatus: n <= over.processed ? 200 : null,
    portalUserId: 100 + n,
    firstName: 'User',
    lastName: `Number${n}`,
    email: `u${n}@x.org`,
    requestId: n <= over.processed ? 500 + n : null,
    requestType: n <= over.processed ? 'NEW' : null,
    fieldErrors: null,
  })),
  ...over,
});

const render = (url: string) =>
  renderRoute({ path: '/app/proxy-access-change-request', url, element: <ProxyAccessChangePage /> });

describe('the proxy access-change page', () => {
  it("says the spec's sentence without the right", async () => {
    mockApi({ ...referenceHandlers, 'GET /rest/secure/user_profile': () => reply(200, profile(false)) });
    render('/app/proxy-access-change-request');
    expect(await screen.findByText(PROXY_MESSAGES.noPermission)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Submit Request' })).not.toBeInTheDocument();
  });

  it('re-attaches to a running batch and follows it to the summary', async () => {
    const api = mockApi({
      ...referenceHandlers,
      'GET /rest/secure/user_profile': () => reply(200, profile(true)),
      [`GET ${BASE}`]: () => reply(200, { content: [batch({ processed: 1 })] }),
      [`GET ${BASE}/7`]: sequence(
        () => reply(200, batch({ processed: 1 })),
        () => reply(200, { ...batch({ processed: 2 }), status: 'COMPLETED' }),
      ),
    });
    const { router } = render('/app/proxy-access-change-request');
    await waitFor(() => expect(router.state.location.search).toBe('?batch=7'));
    expect(await screen.findByText('Submitting 1 of 2 users')).toBeInTheDocument();
    expect(await screen.findByText(PROXY_MESSAGES.submitted(2, 2, 0))).toBeInTheDocument();
    expect(screen.getByText(PROXY_MESSAGES.submittedTitle)).toBeInTheDocument();
    expect(api.callsTo(`GET ${BASE}/7`).length).toBeGreaterThanOrEqual(2);
    expect(screen.getByRole('button', { name: 'Submit Another Request' })).toBeInTheDocument();
  });

  it('counts users, not requests, in the summary of a batch with two role blocks', async () => {
    const done = batch({ processed: 4 });
    // User 1's two requests succeed; user 2's second fails: one user succeeded, one failed (001 §9 one user per
    // call, so the sentence's successes and failures are users, as its count is).
    const results = [1, 2].flatMap((u) =>
      [1, 2].map((b) => ({
        ...done.results[u - 1]!,
        requestNum: (u - 1) * 2 + b,
        blockNum: b,
        ...(u === 2 && b === 2 ? { success: false, responseStatus: 422, requestId: null } : {}),
      })),
    );
    const twoBlocks: ProxyBatchDetail = {
      ...done,
      status: 'COMPLETED',
      accessControls: [
        { roleName: 'Data Manager', siteIds: [] },
        { roleName: 'Monitor', siteIds: [] },
      ] as unknown as ProxyBatchDetail['accessControls'],
      summary: { ...done.summary, totalRequests: 4, numSuccesses: 3, numFailures: 1 },
      results,
    };
    mockApi({
      ...referenceHandlers,
      'GET /rest/secure/user_profile': () => reply(200, profile(true)),
      [`GET ${BASE}`]: () => reply(200, { content: [] }),
      [`GET ${BASE}/7`]: () => reply(200, twoBlocks),
    });
    render('/app/proxy-access-change-request?batch=7');
    expect(await screen.findByText(PROXY_MESSAGES.submitted(2, 1, 1))).toBeInTheDocument();
    expect(screen.getByText('Processed 4 of 4 requests')).toBeInTheDocument();
  });

  it('shows an aborted batch as not submitted, and the empty form disabled', async () => {
    mockApi({
      ...referenceHandlers,
      'GET /rest/secure/user_profile': () => reply(200, profile(true)),
      [`GET ${BASE}`]: () => reply(200, { content: [] }),
      [`GET ${BASE}/8`]: () =>
        reply(200, {
          ...batch({ processed: 1, id: 8 }),
          status: 'ABORTED',
          summary: {
            abortedProcessing: true,
            abortStatusCode: 422,
            abortStatusText: PROXY_MESSAGES.notSubmittedErrors,
            abortRequestNum: 1,
            totalRequests: 2,
            numSuccesses: 0,
            numFailures: 1,
          },
        }),
    });
    const { user, router } = render('/app/proxy-access-change-request?batch=8');
    expect(await screen.findByText(PROXY_MESSAGES.notSubmittedTitle)).toBeInTheDocument();
    expect(screen.getByText(PROXY_MESSAGES.notSubmittedErrors)).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Submit Another Request' }));
    await waitFor(() => expect(router.state.location.search).toBe(''));
    expect(await screen.findByText(PROXY_MESSAGES.selectUser)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Submit Request' })).toBeDisabled();
  });
});
