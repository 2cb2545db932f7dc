/**
 * Configure → Approval policies: the list's empty state and 'Add policy'; the studies' named approvers:
 * pick a study, find a user by name, add them, remove another, save the list.
 */
import type { StudyApprover, UserListRow } from '@portal/contract';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { mockApi, pageOf, reply } from '../../testing/mockApi';
import { renderRoute } from '../../testing/render';
import { ApprovalPoliciesTab } from './ApprovalPoliciesTab';
import { POLICY_TEXTS } from './policyForm';

const POLICIES = 'GET /rest/secure/system_mgmt/approval_policies';
const STUDIES = 'GET /rest/secure/system_mgmt/studies';
const APPROVERS = '/rest/secure/system_mgmt/study/5/approvers';
const USERS = 'GET /rest/secure/user_management/users';

const ann: StudyApprover = {
  userId: 21,
  username: 'ann',
  firstName: 'Ann',
  lastName: 'Approver',
  email: 'ann@portal.test',
};
const bob = {
  id: 22,
  uuid: null,
  username: 'bob',
  firstName: 'Bob',
  lastName: 'Builder',
  email: 'bob@portal.test',
} as UserListRow;

const render = () =>
  renderRoute({
    path: '/app/configure',
    url: '/app/configure?tab=approvalPolicies',
    element: <ApprovalPoliciesTab />,
    permissions: ['ADMIN', 'READ_USERS'],
  });

describe('approval policies tab', { timeout: 60_000 }, () => {
  it('says when there is no policy and offers Add policy', async () => {
    mockApi({ [POLICIES]: () => reply(200, []), [STUDIES]: () => reply(200, []) });
    render();
    expect(await screen.findByText(POLICY_TEXTS.empty)).toBeInTheDocument();
    expect(screen.queryByRole('table', { name: 'Approval policies' })).toBeNull();
    expect(screen.getByRole('link', { name: 'Add policy' })).toHaveAttribute(
      'href',
      '/app/configure/approval-policies/new',
    );
  });

  it("edits a study's named approvers: add one found by name, remove one, save", async () => {
    const api = mockApi({
      [POLICIES]: () => reply(200, []),
      [STUDIES]: () => reply(200, [{ id: 5, study: 'S-1', active: true }]),
      [`GET ${APPROVERS}`]: () => reply(200, [ann]),
      [USERS]: () => reply(200, pageOf([bob])),
      [`PUT ${APPROVERS}`]: () =>
        reply(200, [{ userId: 22, username: 'bob', firstName: 'Bob', lastName: 'Builder', email: 'bob@portal.test' }]),
    });
    const { user } = render();
    await user.click(await screen.findByRole('combobox', { name: 'Study' }));
    await user.click(await screen.findByRole('option', { name: 'S-1', hidden: true }));
    const table = await screen.findByRole('table', { name: 'Approvers of S-1' });
    expect(within(table).getByText('Ann Approver')).toBeInTheDocument();

    await user.type(screen.getByRole('combobox', { name: /Add an approver/ }), 'Bob');
    await user.click(await screen.findByRole('option', { name: /Bob Builder/, hidden: true }));
    await user.click(screen.getByRole('button', { name: 'Remove Ann Approver' }));
    await user.click(screen.getByRole('button', { name: 'Save approvers' }));
    await waitFor(() => expect(api.callsTo(`PUT ${APPROVERS}`)).toHaveLength(1));
    expect(api.callsTo(`PUT ${APPROVERS}`)[0]!.body).toEqual({ userIds: [22] });
    expect(new URLSearchParams(api.callsTo(USERS)[0]!.search).get('filter')).toBe('Bob');
  });
});
