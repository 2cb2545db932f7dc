/**
 * The dashboard's resources (issue 23 Screens; 000 §9): grouped by category with the headless categories first
 * and without headings, each card opening as its kind does, the empty state and the load failure.
 */
import { DASHBOARD_RESOURCE_PATHS, DASHBOARD_RESOURCE_MESSAGES } from '@portal/contract';
import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { mockApi, reply } from '../../testing/mockApi';
import { renderRoute } from '../../testing/render';
import { category, HEADLESS, item } from '../../testing/resourceFixtures';
import { ResourcesSection } from './ResourcesSection';

const GET = `GET ${DASHBOARD_RESOURCE_PATHS.dashboard}`;
const render = () => renderRoute({ path: '/app/dashboard', url: '/app/dashboard', element: <ResourcesSection /> });

describe('dashboard resources', () => {
  it('shows the headless categories first without headings, the others under their name, nested', async () => {
    // The picture lives under /rest/secure: fetched with the call's headers, shown as a data: URL.
    const api = mockApi({
      'GET /rest/secure/dashboard/resources/items/2/image': () =>
        new Response(new Uint8Array([137, 80, 78, 71]), { status: 200, headers: { 'Content-Type': 'image/png' } }),
      [GET]: () =>
        reply(200, {
          categories: [
            category({ id: 7, name: 'Training', order: 0 }),
            category({ id: 8, name: 'Safety', parentId: 7 }),
            ...HEADLESS,
            category({ id: 9, name: 'Empty' }),
          ],
          items: [
            item({
              id: 1,
              kind: 'ELEARNING',
              title: 'GCP course',
              categoryId: 8,
              openUrl: 'http://elearning.test/e/1/t/story.html',
            }),
            item({
              id: 2,
              kind: 'DOWNLOAD',
              title: 'Protocol template',
              categoryId: 2,
              openUrl: '/rest/secure/dashboard/resources/items/2/file',
              file: { name: 'protocol.pdf', size: 1536, contentType: 'application/pdf' },
              hasImage: true,
              imageUrl: '/rest/secure/dashboard/resources/items/2/image',
            }),
            item({
              id: 3,
              kind: 'LINK',
              title: 'Network site',
              description: 'Our public site',
              url: 'https://network.example.org',
            }),
          ],
        }),
    });
    render();
    const section = await screen.findByRole('region', { name: 'Resources' });
    const lists = await within(section).findAllByRole('list');
    // Links, then Downloads (no headings), then Training › Safety.
    expect(lists.map((l) => l.getAttribute('aria-label'))).toEqual(['Links', 'Downloads', 'Safety']);
    expect(within(section).queryByRole('heading', { name: 'Links' })).toBeNull();
    expect(within(section).queryByRole('heading', { name: 'Downloads' })).toBeNull();
    expect(within(section).getByRole('heading', { name: 'Training', level: 3 })).toBeInTheDocument();
    expect(within(section).getByRole('heading', { name: 'Safety', level: 4 })).toBeInTheDocument();
    expect(within(section).queryByRole('heading', { name: 'Empty' })).toBeNull();

    const link = within(section).getByRole('link', { name: /Network site/ });
    expect(link).toHaveAttribute('href', 'https://network.example.org');
    expect(link).toHaveAttribute('target', '_blank');
    expect(link).toHaveAttribute('rel', 'noopener noreferrer');
    expect(link).toHaveAccessibleName(/opens in a new tab/);
    expect(within(section).getByText('Our public site')).toBeInTheDocument();

    const download = within(section).getByRole('link', { name: /Protocol template/ });
    expect(download).toHaveAttribute('href', '/rest/secure/dashboard/resources/items/2/file');
    expect(download).toHaveAttribute('download', 'protocol.pdf');
    expect(download).not.toHaveAttribute('target');
    expect(download).toHaveAccessibleName('Protocol template (download, 1.5 KB)');
    expect(await within(section).findByRole('img', { name: 'Protocol template' })).toHaveAttribute(
      'src',
      expect.stringMatching(/^data:image\/png;base64,/),
    );
    expect(api.callsTo('GET /rest/secure/dashboard/resources/items/2/image')).toHaveLength(1);

    const course = within(section).getByRole('link', { name: /GCP course/ });
    expect(course).toHaveAttribute('href', 'http://elearning.test/e/1/t/story.html');
    expect(course).toHaveAttribute('target', '_blank');
    expect(course).toHaveAttribute('rel', 'noopener noreferrer');
  });

  it('says when nothing is shared with the person', async () => {
    mockApi({ [GET]: () => reply(200, { categories: HEADLESS, items: [] }) });
    render();
    expect(await screen.findByText('No resources have been shared with your portal roles yet.')).toBeInTheDocument();
  });

  it('offers a retry when the resources cannot be loaded', async () => {
    mockApi({ [GET]: () => reply(500, { message: 'boom' }) });
    render();
    expect(await screen.findByText(DASHBOARD_RESOURCE_MESSAGES.loadItems)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Try again' })).toBeInTheDocument();
  });
});
