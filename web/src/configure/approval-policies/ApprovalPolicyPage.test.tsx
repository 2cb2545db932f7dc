/**
 * The approval policy editor: a new policy's body (role, 'Any system', the stages in order), the browser's
 * reminder-before-deadline check, the API's 422 fieldErrors at their fields (`studyRoleId: ['unique']`,
 * `stages[0].reminderDays`), and Delete only after its confirmation.
 */
import type { StudyRoleListItem, SystemDetail } from '@portal/contract';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { policyFixture } from '../../testing/approvalFixtures';
import { mockApi, reply, type Handler } from '../../testing/mockApi';
import { renderRoute } from '../../testing/render';
import { studyRolesFixture, systemsFixture } from '../../testing/referenceFixtures';
import { ApprovalPolicyPage } from './ApprovalPolicyPage';

const POLICIES = '/rest/secure/system_mgmt/approval_policies';
const ROLES: StudyRoleListItem[] = studyRolesFixture.map((r) => ({ ...r, defaultApplicationNames: [] }));
const SYSTEMS: SystemDetail[] = systemsFixture.map((s) => ({ ...s, fixed: s.id === 1 }));

function renderEditor(url: string, handlers: Record<string, Handler> = {}) {
  const api = mockApi({
    [`GET ${POLICIES}`]: () => reply(200, [policyFixture()]),
    'GET /rest/secure/system_mgmt/study_role/': () => reply(200, ROLES),
    'GET /rest/secure/system_mgmt/system_access/': () => reply(200, SYSTEMS),
    ...handlers,
  });
  const view = renderRoute({
    path: '/app/configure/approval-policies/:id',
    url,
    element: <ApprovalPolicyPage />,
    permissions: ['ADMIN', 'READ_USERS'],
    otherRoutes: [{ path: '/app/configure', element: <p>Configure tabs</p> }],
  });
  return { ...view, api };
}

describe('approval policy editor', { timeout: 60_000 }, () => {
  it('creates a policy for a role with two stages in order', async () => {
    const { user, api } = renderEditor('/app/configure/approval-policies/new', {
      [`POST ${POLICIES}`]: (call) => reply(201, { ...policyFixture(), ...(call.body as object) }),
    });
    await user.click(await screen.findByRole('combobox', { name: /Study Role/ }));
    await user.click(await screen.findByRole('option', { name: 'Data Manager', hidden: true }));
    expect(screen.getByRole('combobox', { name: /^System/ })).toHaveValue('Any system');
    expect(screen.queryByRole('button', { name: /^Remove stage/ })).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Add stage 2 (Study approvers)' }));
    expect(screen.getByRole('group', { name: 'Stage 2 of 2' })).toBeInTheDocument();
    // Each remove button says which stage it removes; no add button once both groups have a stage.
    expect(screen.getByRole('button', { name: 'Remove stage 1 (LAO staff)' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Remove stage 2 (Study approvers)' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /^Add stage/ })).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Save policy' }));

    expect(await screen.findByText('Configure tabs')).toBeInTheDocument();
    expect(api.callsTo(`POST ${POLICIES}`)[0]!.body).toEqual({
      studyRoleId: 2,
      systemAccessId: null,
      stages: [
        { approvers: 'LAO_STAFF', deadlineDays: 5, reminderDays: 1, escalateTo: 'USER_SUPPORT' },
        { approvers: 'STUDY_APPROVERS', deadlineDays: 3, reminderDays: 1, escalateTo: 'USER_SUPPORT' },
      ],
      active: true,
    });
  });

  it('checks the reminder comes before the deadline, and shows the API’s field errors at their fields', async () => {
    const { user, api } = renderEditor('/app/configure/approval-policies/30', {
      [`PUT ${POLICIES}/30`]: () =>
        reply(422, {
          fieldErrors: { studyRoleId: ['unique'], 'stages[0].deadlineDays': ['max'] },
          globalErrors: [],
        }),
    });
    const reminder = await screen.findByRole('textbox', { name: /Reminder/ });
    await user.clear(reminder);
    await user.type(reminder, '5');
    await user.click(screen.getByRole('button', { name: 'Save policy' }));
    expect(await screen.findByText(/The reminder must come before the deadline/)).toBeInTheDocument();
    expect(api.callsTo(`PUT ${POLICIES}/30`)).toHaveLength(0);

    await user.clear(reminder);
    await user.type(reminder, '2');
    await user.click(screen.getByRole('button', { name: 'Save policy' }));
    expect(await screen.findByText('This study role (and system) already has a policy.')).toBeInTheDocument();
    expect(screen.getByRole('alert')).toHaveTextContent('Problem saving the approval policy.');
    expect(api.callsTo(`PUT ${POLICIES}/30`)[0]!.body).toMatchObject({ versionno: 2, studyRoleId: 1 });
    await waitFor(() =>
      expect(screen.getByRole('textbox', { name: /Deadline/ })).toHaveAttribute('aria-invalid', 'true'),
    );
  });

  it('deletes a policy only after the confirmation', async () => {
    const { user, api } = renderEditor('/app/configure/approval-policies/30', {
      [`DELETE ${POLICIES}/30`]: () => reply(204),
    });
    await user.click(await screen.findByRole('button', { name: 'Delete policy' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete approval policy?' });
    expect(api.callsTo(`DELETE ${POLICIES}/30`)).toHaveLength(0);
    await user.click(within(dialog).getByRole('button', { name: 'Delete policy' }));
    expect(await screen.findByText('Configure tabs')).toBeInTheDocument();
    expect(api.callsTo(`DELETE ${POLICIES}/30`)).toHaveLength(1);
  });
});
