/**
 * The stage decision page: the request read-only with its stages; 'Approve stage' sends the decision at the
 * request's version with an attempt key and shows the result; 'Reject stage' needs a comment and a
 * confirmation; a stage decided by someone else (422 stale) says so and reloads; no buttons without mayDecide.
 */
import {
  APPROVAL_TEXTS,
  GLOBAL_ERRORS,
  SIGNATURE_HEADER,
  SIGNATURE_TICKET_PATH,
  type AccessModRequest,
  type UserAccess,
} from '@portal/contract';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { approvalView, stageFixture } from '../../testing/approvalFixtures';
import { mockApi, reply, sequence, type Handler } from '../../testing/mockApi';
import { referenceHandlers } from '../../testing/referenceFixtures';
import { renderRoute } from '../../testing/render';
import { request } from '../shared/review/reviewAccessChangeFixtures';
import { StageDecisionPage } from './StageDecisionPage';

const GET = 'GET /rest/secure/user_access_mod_request/7';
const STAGE = 'POST /rest/secure/user_access_mod_request/7/stage';
const pending = (patch: Partial<AccessModRequest> = {}) =>
  request({ requestStatus: 'PENDING_REVIEW', approval: approvalView(), ...patch });
const decided = request({
  requestStatus: 'PENDING_REVIEW',
  versionno: 4,
  approval: approvalView({
    currentStage: 2,
    mayDecide: false,
    stages: [
      stageFixture({ state: 'APPROVED', decidedAt: '2026-01-03T10:00:00Z', decidedBy: 'laostaff', comment: 'fine' }),
      stageFixture({ stage: 2, approvers: 'STUDY_APPROVERS', group: 'STUDY_APPROVERS' }),
    ],
  }),
});

function renderPage(handlers: Record<string, Handler>) {
  const api = mockApi({
    ...referenceHandlers,
    'GET /rest/public/user_registration/system_accesses/': () => reply(200, []),
    ...handlers,
  });
  const view = renderRoute({
    path: '/app/approvals/:id',
    url: '/app/approvals/7',
    element: <StageDecisionPage />,
    permissions: ['USER'],
  });
  return { ...view, api };
}

describe('stage decision page', { timeout: 60_000 }, () => {
  it('approves the open stage and shows the result over the fresh request', async () => {
    const { user, api } = renderPage({ [GET]: () => reply(200, pending()), [STAGE]: () => reply(200, decided) });
    const stages = await screen.findByRole('region', { name: 'Approval stages' });
    expect(within(stages).getByText('Stage 1 of 2: LAO staff')).toBeInTheDocument();
    expect(screen.getByText('Pending Review', { selector: 'dd *, dd' })).toBeInTheDocument();
    await user.type(screen.getByRole('textbox', { name: 'Comment' }), 'Looks right');
    await user.click(screen.getByRole('button', { name: APPROVAL_TEXTS.approveStage }));

    expect(await screen.findByText(APPROVAL_TEXTS.signatureMeaning('APPROVED', 1))).toBeInTheDocument();
    const body = api.callsTo(STAGE)[0]!.body as Record<string, unknown>;
    expect(body).toMatchObject({ stage: 1, decision: 'APPROVED', comment: 'Looks right', versionno: 3 });
    expect(typeof body.attemptKey).toBe('string');
    // The fresh request: stage 1 decided with its comment, no buttons for stage 2.
    expect(await screen.findByText('Comment: fine')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: APPROVAL_TEXTS.approveStage })).toBeNull();
  });

  it('rejecting needs a comment and asks first', async () => {
    const { user, api } = renderPage({
      [GET]: () => reply(200, pending()),
      [STAGE]: () => reply(200, request({ requestStatus: 'REJECTED', approval: approvalView({ mayDecide: false }) })),
    });
    await user.click(await screen.findByRole('button', { name: APPROVAL_TEXTS.rejectStage }));
    expect(await screen.findByText('A comment is required to reject the stage.')).toBeInTheDocument();
    expect(screen.queryByRole('dialog')).toBeNull();

    await user.type(screen.getByRole('textbox', { name: 'Comment' }), 'Wrong LAO');
    await user.click(screen.getByRole('button', { name: APPROVAL_TEXTS.rejectStage }));
    const dialog = await screen.findByRole('dialog', { name: 'Reject stage 1?' });
    expect(api.callsTo(STAGE)).toHaveLength(0);
    // The dialog keeps the focus inside it (Tab and Shift+Tab) and gives it back to 'Reject stage' on Cancel.
    await waitFor(() => expect(dialog).toContainElement(document.activeElement as HTMLElement));
    for (let i = 0; i < 4; i++) {
      await user.tab();
      expect(dialog).toContainElement(document.activeElement as HTMLElement);
    }
    await user.tab({ shift: true });
    expect(dialog).toContainElement(document.activeElement as HTMLElement);
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    const rejectButton = screen.getByRole('button', { name: APPROVAL_TEXTS.rejectStage });
    await waitFor(() => expect(rejectButton).toHaveFocus());
    await user.click(rejectButton);
    const again = await screen.findByRole('dialog', { name: 'Reject stage 1?' });
    await user.click(within(again).getByRole('button', { name: APPROVAL_TEXTS.rejectStage }));
    await waitFor(() => expect(api.callsTo(STAGE)).toHaveLength(1));
    expect(api.callsTo(STAGE)[0]!.body).toMatchObject({ decision: 'REJECTED', comment: 'Wrong LAO' });
  });

  it('a stage decided by someone else: says so and reloads the request', async () => {
    const { user, api } = renderPage({
      [GET]: sequence(
        () => reply(200, pending()),
        () => reply(200, decided),
      ),
      [STAGE]: () => reply(422, { fieldErrors: {}, globalErrors: [GLOBAL_ERRORS.staleVersion] }),
    });
    await user.click(await screen.findByRole('button', { name: APPROVAL_TEXTS.approveStage }));
    expect(await screen.findByText(APPROVAL_TEXTS.stageDecided)).toBeInTheDocument();
    await waitFor(() => expect(api.callsTo(GET)).toHaveLength(2));
    expect(await screen.findByText('Comment: fine')).toBeInTheDocument();
  });

  it('409 busy keeps the form; no buttons for one who may not decide', async () => {
    const { user } = renderPage({
      [GET]: () => reply(200, pending()),
      [STAGE]: () => reply(409, { fieldErrors: {}, globalErrors: [GLOBAL_ERRORS.reviewBusy] }),
    });
    await user.click(await screen.findByRole('button', { name: APPROVAL_TEXTS.approveStage }));
    expect(await screen.findByText(/Another save of this request is being processed/)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: APPROVAL_TEXTS.approveStage })).toBeEnabled();
  });

  it('shows no decision buttons without mayDecide', async () => {
    renderPage({ [GET]: () => reply(200, pending({ approval: approvalView({ mayDecide: false }) })) });
    expect(await screen.findByText(APPROVAL_TEXTS.notYourStage)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: APPROVAL_TEXTS.approveStage })).toBeNull();
  });

  it('signatures on: the approval is signed with its stage meaning, the ticket on the decision', async () => {
    const TICKET = `POST ${SIGNATURE_TICKET_PATH}`;
    const { user, api } = renderPage({
      [GET]: () => reply(200, pending()),
      'GET /rest/secure/portal_settings': () =>
        reply(200, { proxyCommentMarkers: ['[Proxy request]'], signatures: { enabled: true, meanings: {} } }),
      [TICKET]: () => reply(200, { ticket: 'ticket-stage', expiresAt: '2026-12-03T12:00:00Z' }),
      [STAGE]: () => reply(200, decided),
    });
    await waitFor(() => expect(api.callsTo('GET /rest/secure/portal_settings')).toHaveLength(1));
    await user.click(await screen.findByRole('button', { name: APPROVAL_TEXTS.approveStage }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByRole('combobox', { name: /Meaning/ })).toHaveValue('Approved – stage 1');
    await user.type(within(dialog).getByRole('textbox', { name: /Username/ }), 'laostaff');
    await user.type(within(dialog).getByLabelText(/Password/), 'secret');
    await user.click(within(dialog).getByRole('button', { name: 'Sign' }));

    await waitFor(() => expect(api.callsTo(STAGE)).toHaveLength(1));
    const [decision] = api.callsTo(STAGE);
    expect(decision!.headers[SIGNATURE_HEADER]).toBe('ticket-stage');
    expect(api.callsTo(TICKET)[0]!.body).toMatchObject({
      action: 'REQUEST_STAGE_APPROVAL',
      meaning: 'Approved – stage 1',
    });
    expect(await screen.findByText(APPROVAL_TEXTS.signatureMeaning('APPROVED', 1))).toBeInTheDocument();
  });

  it('a CHANGE shows the original access the request came with, read by no READ_USERS call', async () => {
    const original: UserAccess = {
      id: 31,
      portalUserId: 5,
      entity: 'PortalUser',
      formId: null,
      roleName: 'Coordinator',
      inactive: false,
      sites: [],
      siteCodes: [],
      laoIds: ['MA036'],
      studyNames: ['S-9'],
      systemAccessIds: [],
      accessEndDate: null,
      accessEndsSoon: false,
      versionno: 0,
      priorAccessControlId: null,
      originalRevisionNumber: null,
      createdBy: 'seed',
      lastModifiedBy: 'seed',
      sysdat: '2026-01-01T00:00:00Z',
      dchng: '2026-01-01T00:00:00Z',
    };
    // No handler for GET /rest/secure/user_access/31: a call to it would fail the test.
    const { api } = renderPage({
      [GET]: () => reply(200, pending({ requestType: 'CHANGE', existingUserAccessId: 31, originalAccess: original })),
    });
    const panel = await screen.findByRole('region', { name: 'Original Access' });
    expect(within(panel).getByText('Coordinator')).toBeInTheDocument();
    expect(within(panel).getByText('S-9')).toBeInTheDocument();
    expect(screen.queryByText(/Problem loading/)).toBeNull();
    expect(api.calls.some((c) => c.path.startsWith('/rest/secure/user_access/'))).toBe(false);
  });
});
