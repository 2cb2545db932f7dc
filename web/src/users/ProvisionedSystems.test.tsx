/**
 * 'Provisioned systems' on the user detail's Access tab (issue 41): hidden without provisioned accounts, each
 * account's state (In sync / Pending / Error with the target's message), active or deactivated at the system,
 * the last change and the last time in sync; re-read every 2 s while one is Pending, so 'Pending' turns into
 * 'In sync' without a reload; 'Re-sync' for ADMIN only.
 */
import { PROVISIONING_MESSAGES, type ProvisioningAccount } from '@portal/contract';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { mockApi, reply, sequence } from '../testing/mockApi';
import { renderRoute } from '../testing/render';
import { ProvisionedSystems } from './ProvisionedSystems';

const URL = 'GET /rest/secure/user_management/user/7/provisioning';
const RESYNC = 'POST /rest/secure/system_mgmt/system_access/5/provisioning/resync';

const account = (patch: Partial<ProvisioningAccount> = {}): ProvisioningAccount => ({
  systemAccessId: 5,
  systemName: 'Laboratory Information System (demo)',
  state: 'IN_SYNC',
  active: true,
  lastError: null,
  changedAt: '2026-11-26T03:00:00.000Z',
  syncedAt: '2026-11-26T03:00:05.000Z',
  ...patch,
});

function renderAccounts(answer: Parameters<typeof mockApi>[0][string], permissions: ('ADMIN' | 'READ_USERS')[]) {
  const api = mockApi({ [URL]: answer, [RESYNC]: () => reply(200, {}) });
  const view = renderRoute({
    path: '/app/users/:id',
    url: '/app/users/7?tab=access',
    element: (
      <>
        <p>Access tab</p>
        <ProvisionedSystems portalUserId={7} />
      </>
    ),
    permissions,
  });
  return { ...view, api };
}

/** The table's data rows (the first row is the header). */
const rows = async () =>
  within(await screen.findByRole('table', { name: 'Provisioned systems' }))
    .getAllByRole('row')
    .slice(1);

describe('provisioned systems', () => {
  it('is hidden when the person has no provisioned account', async () => {
    const { api } = renderAccounts(() => reply(200, []), ['ADMIN']);
    await waitFor(() => expect(api.callsTo(URL)).toHaveLength(1));
    expect(screen.getByText('Access tab')).toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'Provisioned systems' })).not.toBeInTheDocument();
  });

  it("shows each account's state, at the system, last change and last in sync; an error with its message", async () => {
    renderAccounts(
      () =>
        reply(200, [
          account(),
          account({
            systemAccessId: 6,
            systemName: 'Randomisation',
            state: 'ERROR',
            active: false,
            lastError: '400 Bad Request: userName is not unique',
            syncedAt: null,
          }),
        ]),
      ['READ_USERS'],
    );
    const [lis, rand] = await rows();
    expect(lis).toHaveTextContent('Laboratory Information System (demo)');
    expect(lis).toHaveTextContent('In sync');
    expect(lis).toHaveTextContent('Active');
    expect(lis).toHaveTextContent('11/26/2026');
    expect(rand).toHaveTextContent('Error');
    expect(rand).toHaveTextContent('400 Bad Request: userName is not unique');
    expect(rand).toHaveTextContent('Deactivated');
    expect(rand).toHaveTextContent('---');
    expect(screen.getByText('Accounts at 2 provisioned systems: 1 in sync, 1 error.')).toHaveAttribute(
      'role',
      'status',
    );
    // Re-sync is ADMIN's.
    expect(screen.queryByRole('button', { name: /^Re-sync/ })).not.toBeInTheDocument();
  });

  it("polls while an account is Pending, until it reads 'In sync'", async () => {
    const { api } = renderAccounts(
      sequence(
        () => reply(200, [account({ state: 'PENDING', syncedAt: null, active: null })]),
        () => reply(200, [account()]),
      ),
      ['ADMIN'],
    );
    const [first] = await rows();
    expect(first).toHaveTextContent('Pending');
    // Re-read after 2 s without a reload, then no more reads once nothing is Pending.
    await waitFor(
      () => expect(screen.getByRole('table', { name: 'Provisioned systems' })).toHaveTextContent('In sync'),
      {
        timeout: 10_000,
      },
    );
    expect(api.callsTo(URL)).toHaveLength(2);
    await new Promise((r) => setTimeout(r, 2_500));
    expect(api.callsTo(URL)).toHaveLength(2);
  });

  it('re-syncs one account for an ADMIN', async () => {
    const { user, api } = renderAccounts(() => reply(200, [account({ state: 'ERROR', lastError: 'boom' })]), ['ADMIN']);
    const [row] = await rows();
    await user.click(within(row!).getByRole('button', { name: 'Re-sync Laboratory Information System (demo)' }));
    await waitFor(() => expect(api.callsTo(RESYNC)).toHaveLength(1));
    expect(api.callsTo(RESYNC)[0]!.body).toEqual({ portalUserId: 7 });
    expect(await screen.findByText(PROVISIONING_MESSAGES.resyncStarted)).toBeInTheDocument();
  });

  it('shows a load failure with a retry', async () => {
    renderAccounts(() => reply(500, { message: 'boom' }), ['ADMIN']);
    expect(await screen.findByText('Problem loading the provisioned systems.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Try again' })).toBeInTheDocument();
  });
});
