/**
 * The shared configuration editor (`ConfigEditorRoute`, `useConfigEditor`, `ConfigEditor`), tested once
 * through the systems editor, plus the one behaviour that differs per kind (a toggle answered 304) through
 * the portal roles editor (001 §2.12, §4, §7, §8).
 */
import { CONFIG_MESSAGES, type PortalRole, type SystemDetail } from '@portal/contract';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { mockApi, reply, type Handler } from '../../testing/mockApi';
import { renderRoute } from '../../testing/render';
import { PortalRolePage } from '../PortalRolePage';
import { SystemPage } from '../SystemPage';

const SYSTEMS = '/rest/secure/system_mgmt/system_access';
const PORTAL_ROLES = '/rest/secure/system_mgmt/portal_roles';

const system = (patch: Partial<SystemDetail> = {}): SystemDetail => ({
  id: 5,
  systemName: 'Imaging',
  description: 'Image archive',
  inactive: false,
  sort: 3,
  fixed: false,
  ...patch,
});

/** The systems editor at `url`; the Systems tab it returns to shows a marker. */
function renderSystemEditor(url: string, handlers: Record<string, Handler>, permissions: ('ADMIN' | 'READ_USERS')[]) {
  // The page's single sign-on and provisioning sections (tested in sso/, provisioning/) find none.
  const api = mockApi({
    [`GET ${SYSTEMS}/5/sso_client`]: () => reply(200, null),
    [`GET ${SYSTEMS}/5/provisioning`]: () => reply(200, null),
    ...handlers,
  });
  const view = renderRoute({
    path: '/app/configure/systems/:id',
    url,
    element: <SystemPage />,
    permissions,
    otherRoutes: [{ path: '/app/configure', element: <p>Configure tabs</p> }],
  });
  return { ...view, api };
}

const ADMIN: ('ADMIN' | 'READ_USERS')[] = ['ADMIN', 'READ_USERS'];

describe('configuration editor', () => {
  it('creates a record: POST with the mapped body, success notification, back to the tab', async () => {
    const { user, api, router } = renderSystemEditor(
      '/app/configure/systems/new',
      { [`POST ${SYSTEMS}/`]: () => reply(201, system({ id: 9, systemName: 'Labs' })) },
      ADMIN,
    );
    expect(await screen.findByRole('heading', { name: 'Add System' })).toBeInTheDocument();
    await user.type(screen.getByRole('textbox', { name: 'System Name' }), '  Labs ');
    await user.click(screen.getByRole('button', { name: 'Create System' }));

    expect(await screen.findByText(CONFIG_MESSAGES.systems.saved('Labs'))).toBeInTheDocument();
    expect(await screen.findByText('Configure tabs')).toBeInTheDocument();
    expect(router.state.location.search).toBe('?tab=systems');
    expect(api.callsTo(`POST ${SYSTEMS}/`)[0]!.body).toEqual({ systemName: 'Labs', description: '', sort: 0 });
  });

  it('validates before sending: a required field shows its text and nothing is sent', async () => {
    const { user, api } = renderSystemEditor('/app/configure/systems/new', {}, ADMIN);
    await user.click(await screen.findByRole('button', { name: 'Create System' }));
    expect(await screen.findByText('System Name is required')).toBeInTheDocument();
    // The error is where focus goes, and the form's summary is announced.
    await waitFor(() => expect(screen.getByRole('textbox', { name: 'System Name' })).toHaveFocus());
    expect(screen.getByRole('alert')).toHaveTextContent(/need your attention/);
    expect(api.calls).toHaveLength(0);
  });

  it('shows 422 fieldErrors beside their fields and the failure text above the form', async () => {
    const { user } = renderSystemEditor(
      '/app/configure/systems/5',
      {
        [`GET ${SYSTEMS}/5`]: () => reply(200, system()),
        [`PUT ${SYSTEMS}/5`]: () =>
          reply(422, { fieldErrors: { systemName: ['unique'] }, globalErrors: [], message: 'Invalid' }),
      },
      ADMIN,
    );
    const name = await screen.findByRole('textbox', { name: 'System Name' });
    await user.clear(name);
    await user.type(name, 'Imaging 2');
    await user.click(screen.getByRole('button', { name: 'Save System' }));

    expect(await screen.findByText('System Name is already in use')).toBeInTheDocument();
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent(CONFIG_MESSAGES.systems.updateFailed);
    // The form keeps what was typed.
    expect(name).toHaveValue('Imaging 2');
  });

  it('reads a save answered 304 as "no changes" and stays', async () => {
    const { user, router } = renderSystemEditor(
      '/app/configure/systems/5',
      { [`GET ${SYSTEMS}/5`]: () => reply(200, system()), [`PUT ${SYSTEMS}/5`]: () => reply(304) },
      ADMIN,
    );
    await user.click(await screen.findByRole('button', { name: 'Save System' }));
    expect(await screen.findByText(CONFIG_MESSAGES.noChanges)).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/app/configure/systems/5');
  });

  it('deletes after the in-use dialog: references listed, blocking ones disable the button', async () => {
    const refs = (requests: unknown[]): Record<string, Handler> => ({
      [`GET ${SYSTEMS}/5/inUseByStudyRole`]: () => reply(200, []),
      [`GET ${SYSTEMS}/5/inUseByUser`]: () =>
        reply(200, [{ id: 1, username: 'ann', firstName: 'Ann', lastName: 'Lee', email: 'ann@x.test' }]),
      [`GET ${SYSTEMS}/5/inUseByPendingUser`]: () => reply(200, []),
      [`GET ${SYSTEMS}/5/inUseByOutstandingUserAccessMod`]: () => reply(200, requests),
    });
    const outstanding = {
      id: 44,
      requestType: 'NEW',
      requestStatus: 'NEW',
      subjectUserId: 2,
      firstName: 'Bo',
      lastName: 'Ng',
      email: 'bo@x.test',
      sysdat: '2026-01-02T03:04:05Z',
    };

    // Blocked: an outstanding request references the system.
    const blocked = renderSystemEditor(
      '/app/configure/systems/5',
      { [`GET ${SYSTEMS}/5`]: () => reply(200, system()), ...refs([outstanding]) },
      ADMIN,
    );
    await blocked.user.click(await screen.findByRole('button', { name: 'Delete System' }));
    let dialog = await screen.findByRole('dialog', { name: 'Delete System?' });
    expect(await within(dialog).findByText('1 outstanding request references this system.')).toBeInTheDocument();
    expect(within(dialog).getByText('1 active user references this system.')).toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: 'Delete System' })).toBeDisabled();
    blocked.unmount();

    // Not blocked: confirming deactivates, says 'Deleted' and returns to the tab.
    const free = renderSystemEditor(
      '/app/configure/systems/5',
      {
        [`GET ${SYSTEMS}/5`]: () => reply(200, system()),
        ...refs([]),
        [`PUT ${SYSTEMS}/5/deactivate/`]: () => reply(200, system({ inactive: true })),
      },
      ADMIN,
    );
    await free.user.click(await screen.findByRole('button', { name: 'Delete System' }));
    dialog = await screen.findByRole('dialog', { name: 'Delete System?' });
    const confirm = within(dialog).getByRole('button', { name: 'Delete System' });
    await waitFor(() => expect(confirm).toBeEnabled());
    await free.user.click(confirm);
    expect(await screen.findByText(CONFIG_MESSAGES.deleted)).toBeInTheDocument();
    expect(await screen.findByText('Configure tabs')).toBeInTheDocument();
    expect(free.api.callsTo(`PUT ${SYSTEMS}/5/deactivate/`)).toHaveLength(1);
  });

  it('a toggle answered 304 is information for systems and study roles', async () => {
    const { user, router } = renderSystemEditor(
      '/app/configure/systems/5',
      {
        [`GET ${SYSTEMS}/5`]: () => reply(200, system({ inactive: true })),
        [`PUT ${SYSTEMS}/5/activate/`]: () => reply(304),
      },
      ADMIN,
    );
    await user.click(await screen.findByRole('button', { name: 'Activate System' }));
    const status = await screen.findByText(CONFIG_MESSAGES.systems.alreadyInState);
    expect(status.closest('[role="status"]')).not.toBeNull();
    expect(router.state.location.pathname).toBe('/app/configure/systems/5');
  });

  it('a toggle answered 304 is an error for portal roles', async () => {
    const role: PortalRole = { id: 3, description: 'Auditors', permissions: ['READ_USERS'], inactive: true, sort: 1 };
    mockApi({
      [`GET ${PORTAL_ROLES}/3`]: () => reply(200, role),
      [`PUT ${PORTAL_ROLES}/activate/3`]: () => reply(304),
    });
    const { user } = renderRoute({
      path: '/app/configure/roles/:id',
      url: '/app/configure/roles/3',
      element: <PortalRolePage />,
      permissions: ADMIN,
    });
    await user.click(await screen.findByRole('button', { name: 'Activate Portal Role' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(CONFIG_MESSAGES.portalRoles.toggleFailed('activate'));
  });

  it('is read-only without ADMIN: no buttons, a notice', async () => {
    renderSystemEditor('/app/configure/systems/5', { [`GET ${SYSTEMS}/5`]: () => reply(200, system()) }, [
      'READ_USERS',
    ]);
    expect(await screen.findByText(/changing it needs the ADMIN permission/)).toBeInTheDocument();
    expect(screen.getByRole('heading', { level: 1, name: 'View System' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Save System' })).toBeNull();
    expect(screen.getByRole('textbox', { name: 'System Name' })).toHaveAttribute('readonly');
  });

  it('route: an impossible id and a failed load show the kind’s load text', async () => {
    const bad = renderSystemEditor('/app/configure/systems/abc', {}, ADMIN);
    expect(await screen.findByRole('alert')).toHaveTextContent(CONFIG_MESSAGES.systems.load);
    expect(screen.queryByRole('button', { name: 'Try again' })).toBeNull();
    bad.unmount();

    renderSystemEditor(
      '/app/configure/systems/5',
      { [`GET ${SYSTEMS}/5`]: () => reply(500, { message: 'boom' }) },
      ADMIN,
    );
    expect(await screen.findByRole('alert')).toHaveTextContent(CONFIG_MESSAGES.systems.load);
    expect(screen.getByRole('button', { name: 'Try again' })).toBeInTheDocument();
  });
});
