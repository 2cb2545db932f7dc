/**
 * The dashboard item editor (issue 23): the browser's checks before an upload, the server's 422 keys beside
 * their fields in the spec's words (000 §5: protocolRequired, invalidDomain, notImage, noIndexOrStoryFile,
 * notCompressedFile) with the failure text above the form, and a save that returns to the tab.
 */
import { DASHBOARD_RESOURCE_MESSAGES as M, DASHBOARD_RESOURCE_PATHS as P, type PortalRole } from '@portal/contract';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { mockApi, reply, type Handler } from '../../testing/mockApi';
import { renderRoute } from '../../testing/render';
import { HEADLESS, item } from '../../testing/resourceFixtures';
import { ItemPage } from './ItemPage';

const ROLES: PortalRole[] = [
  { id: 4, description: 'Network User', permissions: ['USER'], inactive: false, sort: 0 },
  { id: 5, description: 'Old Role', permissions: ['USER'], inactive: true, sort: 0 },
];
const LIMITS = {
  maxFileBytes: 1024 ** 3,
  maxImageBytes: 5 * 1024 ** 2,
  maxPackageBytes: 1024 ** 3,
  maxPackageEntries: 10_000,
  maxUnpackedBytes: 2 * 1024 ** 3,
  maxCompressionRatio: 100,
};

function renderEditor(url: string, handlers: Record<string, Handler> = {}) {
  const api = mockApi({
    [`GET ${P.categories}`]: () => reply(200, HEADLESS),
    'GET /rest/secure/system_mgmt/portal_roles/getAll': () => reply(200, ROLES),
    [`GET ${P.limits}`]: () => reply(200, LIMITS),
    ...handlers,
  });
  const view = renderRoute({
    path: '/app/configure/dashboard-items/:id',
    url,
    element: <ItemPage />,
    permissions: ['ADMIN', 'READ_USERS'],
    otherRoutes: [{ path: '/app/configure', element: <p>Configure tabs</p> }],
  });
  return { ...view, api };
}

describe('dashboard item editor', { timeout: 60_000 }, () => {
  it('checks a link before sending: a URL without a protocol is refused in the spec’s words', async () => {
    const { user, api } = renderEditor('/app/configure/dashboard-items/new');
    await user.type(await screen.findByRole('textbox', { name: 'Title' }), 'Network site');
    await user.type(screen.getByRole('textbox', { name: 'URL' }), 'www.example.org');
    await user.click(screen.getByRole('button', { name: 'Create Dashboard Item' }));
    expect(await screen.findByText('URL must have a valid protocol')).toBeInTheDocument();
    expect(screen.getByText('Portal Roles are required')).toBeInTheDocument();
    // Inactive roles are not offered to a new item.
    expect(screen.queryByRole('checkbox', { name: 'Old Role' })).toBeNull();
    expect(api.callsTo(`POST ${P.items}`)).toHaveLength(0);
  });

  it('shows the server’s upload keys beside their fields and the failure text above the form', async () => {
    const { user, api, container } = renderEditor('/app/configure/dashboard-items/new', {
      [`POST ${P.items}`]: () =>
        reply(422, { fieldErrors: { file: ['noIndexOrStoryFile'], image: ['notImage'] }, globalErrors: [] }),
    });
    expect(await screen.findByRole('combobox', { name: 'Category' })).toHaveValue('Links');
    await user.click(screen.getByRole('radio', { name: 'eLearning' }));
    // A new item follows its kind's headless category until another is chosen.
    expect(screen.getByRole('combobox', { name: 'Category' })).toHaveValue('eLearnings');
    await user.type(screen.getByRole('textbox', { name: 'Title' }), 'GCP course');
    await user.click(screen.getByRole('checkbox', { name: 'Network User' }));
    const [packageInput, imageInput] = container.querySelectorAll<HTMLInputElement>('input[type=file]');
    // A person may pick any file whatever the field accepts (the dialog's filter is a hint).
    await userEvent
      .setup({ applyAccept: false })
      .upload(packageInput!, new File(['PK'], 'course.txt', { type: 'text/plain' }));
    await user.click(screen.getByRole('button', { name: 'Create Dashboard Item' }));
    expect(await screen.findByText('Package is not a recognized compressed file type (e.g. .zip)')).toBeInTheDocument();

    await user.upload(packageInput!, new File(['PK'], 'course.zip', { type: 'application/zip' }));
    await user.upload(imageInput!, new File(['x'], 'cover.png', { type: 'image/png' }));
    await user.click(screen.getByRole('button', { name: 'Create Dashboard Item' }));
    expect(
      await screen.findByText('Package is missing an index.html or story.html file in its root folder'),
    ).toBeInTheDocument();
    expect(screen.getByText('Picture must be an image')).toBeInTheDocument();
    expect(screen.getByText(M.saveItemFailed)).toBeInTheDocument();
    const sent = api.callsTo(`POST ${P.items}`);
    expect(sent).toHaveLength(1);
  });

  it('saves an edited link and returns to the tab; the key invalidDomain reads as the spec words it', async () => {
    const link = item({ id: 12, kind: 'LINK', title: 'Network site', url: 'https://network.example.org' });
    let answers = 0;
    const { user, router } = renderEditor('/app/configure/dashboard-items/12', {
      [`GET ${P.items}/12`]: () => reply(200, link),
      [`PUT ${P.items}/12`]: () =>
        ++answers === 1
          ? reply(422, { fieldErrors: { url: ['invalidDomain'] }, globalErrors: [] })
          : reply(200, { ...link, url: 'https://network.example.com' }),
    });
    const url = await screen.findByRole('textbox', { name: 'URL' });
    expect(screen.getByRole('heading', { name: 'Edit Dashboard Item' })).toBeInTheDocument();
    await user.clear(url);
    await user.type(url, 'https://network.example.com');
    await user.click(screen.getByRole('button', { name: 'Save Dashboard Item' }));
    expect(await screen.findByText('URL has an invalid or missing top-level domain (e.g. ".org")')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Save Dashboard Item' }));
    expect(await screen.findByText(M.saved('Network site'))).toBeInTheDocument();
    await waitFor(() => expect(router.state.location.search).toBe('?tab=dashboardItems'));
  });
});
