/**
 * 'My applications' (issue 22 Launch) on mocked HTTP: the loading state, the cards opening each system's
 * launch URL in a new tab, the empty state and a failed load with its retry.
 */
import type { MyApplication } from '@portal/contract';
import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { mockApi, reply, sequence, type Handler } from '../testing/mockApi';
import { renderRoute } from '../testing/render';
import { MY_APPLICATIONS_TEXTS, MyApplications } from './MyApplications';

const URL_KEY = 'GET /rest/secure/my_applications';

function renderSection(answer: Handler) {
  const api = mockApi({ [URL_KEY]: answer });
  return { ...renderRoute({ path: '/', url: '/', element: <MyApplications headingId="apps" /> }), api };
}

describe('My applications', () => {
  it('shows each held system with single sign-on as a link opening a new tab', async () => {
    const apps: MyApplication[] = [
      { systemId: 3, systemName: 'Electronic Data Capture', launchUrl: 'https://edc.example.org/login?iss=x' },
      { systemId: 5, systemName: 'Imaging', launchUrl: 'https://img.example.org/start?iss=x' },
    ];
    let answer!: (r: Response) => void;
    renderSection(() => new Promise<Response>((resolve) => (answer = resolve)));
    expect(screen.getByRole('heading', { level: 2, name: 'My applications' })).toBeInTheDocument();
    expect(await screen.findByRole('status')).toHaveTextContent(MY_APPLICATIONS_TEXTS.loading);
    answer(reply(200, apps));
    const link = await screen.findByRole('link', { name: /Electronic Data Capture/ });
    expect(link).toHaveAttribute('href', 'https://edc.example.org/login?iss=x');
    expect(link).toHaveAttribute('target', '_blank');
    expect(link).toHaveAttribute('rel', 'noopener noreferrer');
    expect(link).toHaveAccessibleName(/^Electronic Data Capture\s*\(opens in a new tab\)$/);
    expect(screen.getAllByRole('listitem')).toHaveLength(2);
  });

  it('says when there is none', async () => {
    renderSection(() => reply(200, []));
    expect(await screen.findByText(MY_APPLICATIONS_TEXTS.empty)).toBeInTheDocument();
  });

  it('shows a failed load with a retry', async () => {
    const { user } = renderSection(
      sequence(
        () => reply(500, {}),
        () => reply(200, []),
      ),
    );
    expect(await screen.findByRole('alert')).toHaveTextContent(MY_APPLICATIONS_TEXTS.loadFailed);
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByText(MY_APPLICATIONS_TEXTS.empty)).toBeInTheDocument();
  });
});
