/**
 * The shared review shell (`ReviewShell`, `ReviewFormShell`, `useReviewSave`), tested once through the access
 * change review (001 §2.8, §4; REQUEST-LIFECYCLE rule 6): load states, saved, 304, 202 'still processing'
 * and 409 'busy' (values kept, Save stays), stale, and the attempt key: the same key when the same values are
 * retried after a 202 or a lost answer, a new one for a new attempt.
 */
import { GLOBAL_ERRORS, MESSAGES, proxyComment, ReviewAttemptKeySchema } from '@portal/contract';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { reply, sequence } from '../../../testing/mockApi';
import { NOT_APPLIED_TEXT } from '../../access-change/review/ReviewForm';
import { RELOADED_TEXT } from './useReviewSave';

import { GET, SAVE, renderReview, request } from './reviewAccessChangeFixtures';

async function typeComment(user: ReturnType<typeof renderReview>['user'], text: string) {
  const comments = await screen.findByRole('textbox', { name: /Reviewer Comments/ });
  await user.clear(comments);
  await user.type(comments, text);
  return comments;
}

const processing = () => reply(202, { status: 'PROCESSING', message: MESSAGES.access.reviewProcessing });
const busy = () =>
  reply(409, { fieldErrors: {}, globalErrors: [GLOBAL_ERRORS.reviewBusy], message: MESSAGES.access.reviewBusy });

describe('review shell', () => {
  it('shows the request, saves with a fresh attempt key and reports success', async () => {
    const { user, sent } = renderReview({
      [SAVE]: () => reply(200, request({ reviewerComments: 'ok', versionno: 4 })),
    });
    expect(await screen.findByRole('heading', { name: 'Review Access Change Request' })).toBeInTheDocument();
    expect(await screen.findByText('Investigator')).toBeInTheDocument();
    await typeComment(user, 'ok');
    await user.click(screen.getByRole('button', { name: 'Save Changes' }));

    // One confirmation, the spec's words (001 §2.8): the notification, not an inline alert as well.
    expect(await screen.findAllByText(MESSAGES.access.reviewSaved)).toHaveLength(1);
    const [body] = sent();
    expect(body!.userAccessModificationRequest).toMatchObject({ id: 7, versionno: 3, reviewerComments: 'ok' });
    expect(ReviewAttemptKeySchema.safeParse(body!.attemptKey).success).toBe(true);
  });

  it('202: tells the save is still processing, keeps the values and retries under the same key', async () => {
    const { user, sent } = renderReview({ [SAVE]: sequence(processing, processing, processing) });
    const comments = await typeComment(user, 'slow one');
    await user.click(screen.getByRole('button', { name: 'Save Changes' }));

    const info = await screen.findByText(MESSAGES.access.reviewProcessing);
    expect(info.closest('[role="status"]')).not.toBeNull();
    expect(comments).toHaveValue('slow one');
    const save = screen.getByRole('button', { name: 'Save Changes' });
    await waitFor(() => expect(save).toBeEnabled());

    // The same values again: the retry joins the first attempt.
    await user.click(save);
    await waitFor(() => expect(sent()).toHaveLength(2));
    expect(sent()[1]!.attemptKey).toBe(sent()[0]!.attemptKey);

    // Different values: a new attempt, a new key.
    await waitFor(() => expect(save).toBeEnabled());
    await typeComment(user, 'slow two');
    await user.click(save);
    await waitFor(() => expect(sent()).toHaveLength(3));
    expect(sent()[2]!.attemptKey).not.toBe(sent()[0]!.attemptKey);
  });

  it('a lost answer (network failure) also retries under the same key', async () => {
    const { user, sent } = renderReview({
      [SAVE]: sequence(
        () => Promise.reject(new TypeError('Failed to fetch')),
        () => reply(200, request({ versionno: 4 })),
      ),
    });
    await typeComment(user, 'again');
    await user.click(screen.getByRole('button', { name: 'Save Changes' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(MESSAGES.access.reviewFailed);
    await user.click(screen.getByRole('button', { name: 'Save Changes' }));
    await waitFor(() => expect(sent()).toHaveLength(2));
    expect(sent()[1]!.attemptKey).toBe(sent()[0]!.attemptKey);
  });

  it('409: says another save is running, keeps the values; the next save is a new attempt', async () => {
    const { user, sent } = renderReview({ [SAVE]: sequence(busy, () => reply(200, request({ versionno: 4 }))) });
    const comments = await typeComment(user, 'mine');
    await user.click(screen.getByRole('button', { name: 'Save Changes' }));

    expect(await screen.findByText(MESSAGES.access.reviewBusy)).toBeInTheDocument();
    expect(screen.queryByText(/Someone else changed this request/)).toBeNull();
    expect(comments).toHaveValue('mine');
    await user.click(screen.getByRole('button', { name: 'Save Changes' }));
    await waitFor(() => expect(sent()).toHaveLength(2));
    expect(sent()[1]!.attemptKey).not.toBe(sent()[0]!.attemptKey);
  });

  it("422 STALE_VERSION: 'Reload request' loads the new version and keeps the comments and ticket", async () => {
    const { user, api, sent } = renderReview({
      [GET]: sequence(
        () => reply(200, request()),
        () => reply(200, request({ versionno: 4, requestStatus: 'IN_PROGRESS', reviewerComments: 'theirs' })),
      ),
      [SAVE]: sequence(
        () => reply(422, { fieldErrors: {}, globalErrors: [GLOBAL_ERRORS.staleVersion], message: 'Stale' }),
        () => reply(200, request({ versionno: 5 })),
      ),
    });
    await typeComment(user, 'late');
    await user.type(screen.getByRole('textbox', { name: /External Ticket #/ }), 'SR-9');
    await user.click(screen.getByRole('button', { name: 'Save Changes' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(/Someone else changed this request/);
    await user.click(screen.getByRole('button', { name: 'Reload request' }));
    await waitFor(() => expect(api.callsTo(GET)).toHaveLength(2));

    expect(await screen.findByText(RELOADED_TEXT)).toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: /Reviewer Comments/ })).toHaveValue('late');
    expect(screen.getByRole('textbox', { name: /External Ticket #/ })).toHaveValue('SR-9');
    // The fresh version's status; saving again sends the new version number with the kept text.
    expect(screen.getByRole('combobox', { name: 'Request Status' })).toHaveValue('In Progress');
    await user.click(screen.getByRole('button', { name: 'Save Changes' }));
    await waitFor(() => expect(sent()).toHaveLength(2));
    expect(sent()[1]!.userAccessModificationRequest).toMatchObject({
      versionno: 4,
      reviewerComments: 'late',
      sysaidTicket: 'SR-9',
    });
  });

  it('422 fieldErrors land beside their fields; 304 is "no changes"', async () => {
    const { user } = renderReview({
      [SAVE]: sequence(
        () =>
          reply(422, {
            fieldErrors: { 'userAccessModificationRequest.sysaidTicket': ['size'] },
            globalErrors: [],
            message: 'Invalid',
          }),
        () => reply(304),
      ),
    });
    await typeComment(user, 'x');
    await user.click(screen.getByRole('button', { name: 'Save Changes' }));
    expect(await screen.findByText('External Ticket # is too long')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Save Changes' }));
    expect(await screen.findByText(MESSAGES.access.noChanges)).toBeInTheDocument();
  });

  it('read-only without WRITE_USERS, locked when resolved, and the load states', async () => {
    const viewer = renderReview({}, ['USER', 'READ_USERS']);
    expect(await screen.findByText('You do not have permission to modify access-change requests.')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Save Changes' })).toBeNull();
    viewer.unmount();

    const closed = renderReview({
      [GET]: () => reply(200, request({ requestStatus: 'APPROVED', allowedNextStatuses: [] })),
    });
    expect(await screen.findByText(/This request is resolved \(Approved\)/)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Save Changes' })).toBeNull();
    closed.unmount();

    renderReview({ [GET]: () => reply(404, { message: 'Request 7 was not found.' }) });
    // A not-found state, not a load failure: a heading, the server's text, the way back, no retry.
    expect(await screen.findByRole('heading', { name: 'Request Not Found', level: 2 })).toBeInTheDocument();
    expect(screen.getByRole('status')).toHaveTextContent('Request 7 was not found.');
    expect(screen.queryByRole('button', { name: 'Try again' })).toBeNull();
    expect(screen.getByRole('link', { name: 'Go to the User Requests queue' })).toHaveAttribute(
      'href',
      '/app/user-requests',
    );
    expect(screen.getByRole('link', { name: /Back to User Requests Page/ })).toHaveAttribute(
      'href',
      '/app/user-requests',
    );
  });
  it("Apply Above Changes puts the requested role in the user's access; the save sends the 000 §7 body", async () => {
    const { user, sent } = renderReview({ [SAVE]: () => reply(200, request({ versionno: 4 })) });
    expect(await screen.findByText(/take effect immediately on saving/)).toBeInTheDocument();
    expect(await screen.findByText('The user holds no access.')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Apply Above Changes' }));
    const current = screen.getByRole('region', { name: /Current Access of Uma Ser/ });
    expect(await within(current).findByText('Role #1')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Save Changes' }));
    await waitFor(() => expect(sent()).toHaveLength(1));
    const [body] = sent();
    expect(body!.portalUser).toEqual({ id: 12, portalRoleIds: [] });
    expect(body!.userAccesses).toEqual([
      expect.objectContaining({ roleName: 'Investigator', laoIds: ['LAO1'], studyNames: ['S-1'], portalUserId: 12 }),
    ]);
  });

  it('finalizing asks first, warning when the requested access was never applied', async () => {
    const { user, sent } = renderReview({ [SAVE]: () => reply(200, request({ requestStatus: 'APPROVED' })) });
    await user.click(await screen.findByRole('combobox', { name: 'Request Status' }));
    await user.click(await screen.findByRole('option', { name: 'Approved', hidden: true }));
    await user.click(screen.getByRole('button', { name: 'Save Changes' }));
    const dialog = await screen.findByRole('dialog', { name: 'Confirm Request Finalization/Closure' });
    expect(dialog).toHaveTextContent(NOT_APPLIED_TEXT);
    expect(dialog).toHaveTextContent(
      'Saving with the status ‘Approved’ finalizes and closes this request. It cannot be changed afterwards. Do you want to continue?',
    );
    expect(sent()).toHaveLength(0);
    await user.click(within(dialog).getByRole('button', { name: 'OK' }));
    await waitFor(() => expect(sent()).toHaveLength(1));
    expect(sent()[0]!.userAccessModificationRequest.requestStatus).toBe('APPROVED');
  });

  it("a proxy-filed request's comments show without the marker, described by who filed them", async () => {
    const proxy = { name: 'Morgan Liaison', email: 'morgan@portal.test', id: 3 };
    const requested = { name: 'Uma Ser', email: 'uma@portal.test', id: 12 };
    renderReview({
      [GET]: () =>
        reply(
          200,
          request({
            isProxyRequest: true,
            proxyUserId: 3,
            proxyName: 'Morgan Liaison',
            requesterComments: proxyComment('[Proxy request]', proxy, requested, 'For the new study'),
          }),
        ),
      'GET /rest/secure/portal_settings': () => reply(200, { proxyCommentMarkers: ['[Proxy request]'] }),
    });
    const comments = await screen.findByRole('textbox', { name: 'Requester Comments' });
    await waitFor(() => expect(comments).toHaveValue('For the new study'));
    expect(comments).toHaveAccessibleDescription('Submitted by proxy: Morgan Liaison');
  });

  it("places the server's userAccesses[i] errors under their role block", async () => {
    const { user } = renderReview({
      [SAVE]: () =>
        reply(422, {
          fieldErrors: { 'userAccesses[0].studyNames': ['At least one study is required'] },
          globalErrors: [],
        }),
    });
    await user.click(await screen.findByRole('button', { name: 'Apply Above Changes' }));
    await user.click(screen.getByRole('button', { name: 'Save Changes' }));
    expect(await screen.findByText('At least one study is required')).toBeInTheDocument();
  });
});
