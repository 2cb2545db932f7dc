/**
 * The single sign-on refusal page /app/sso/refused (issue 22; 000 §8 Single sign-on): each case's text under
 * the heading, an unknown case as 'undetermined', and the ways on: 'Request access to <system>' to the form
 * with the system preselected, or the open request instead; the dashboard, or sign-in when signed out.
 */
import { SSO_REFUSAL_CASES, ssoRefusalText } from '@portal/contract';
import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { setXsrfToken } from '../lib/apiClient';
import { paths } from '../lib/paths';
import { mockApi, reply } from '../testing/mockApi';
import { referenceHandlers } from '../testing/referenceFixtures';
import { renderRoute } from '../testing/render';
import { SsoRefusedPage } from './SsoRefusedPage';

/** The provider's name the API is configured with (SSO_PROVIDER_NAME), read by the page at run time. */
const PROVIDER_NAME = 'Example Research Network';

function renderRefused(search: string) {
  mockApi({ ...referenceHandlers, 'GET /rest/public/sso/config': () => reply(200, { providerName: PROVIDER_NAME }) });
  const view = renderRoute({
    path: paths.app.sso.refused.path,
    url: `${paths.app.sso.refused.path}?${search}`,
    element: <SsoRefusedPage />,
    otherRoutes: [{ path: paths.app.requestAccess.path, element: <p>Request form</p> }],
  });
  return { ...view, at: () => `${view.router.state.location.pathname}${view.router.state.location.search}` };
}

describe('the single sign-on refusal page', () => {
  it.each(SSO_REFUSAL_CASES)("shows the heading and the text of case '%s'", async (kase) => {
    renderRefused(`case=${kase}`);
    expect(await screen.findByRole('heading', { level: 1, name: 'Unable to sign you in' })).toBeInTheDocument();
    expect(await screen.findByText(ssoRefusalText(kase, PROVIDER_NAME))).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: /Request access/ })).toBeNull();
  });

  it("reads an unknown or missing case as 'undetermined'", async () => {
    renderRefused('case=%3Cscript%3E');
    expect(await screen.findByText(ssoRefusalText('undetermined', PROVIDER_NAME))).toBeInTheDocument();
  });

  it('offers to request access to the system, opening the form with it preselected', async () => {
    setXsrfToken('xsrf-1');
    const { user, at } = renderRefused('case=notAuthorized&systemId=2&systemName=Study%20Data%20Capture');
    expect(await screen.findByText(ssoRefusalText('notAuthorized', PROVIDER_NAME))).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Go to the dashboard' })).toHaveAttribute('href', '/app/dashboard');
    await user.click(await screen.findByRole('link', { name: 'Request access to Study Data Capture' }));
    expect(await screen.findByText('Request form')).toBeInTheDocument();
    expect(at()).toBe(paths.app.requestAccess.forSystem(2));
  });

  it('leads a person without a second factor to their profile, where one is added (issue 37)', async () => {
    setXsrfToken('xsrf-1');
    renderRefused('case=noSecondFactor&systemId=2&systemName=Study%20Data%20Capture');
    expect(await screen.findByText(ssoRefusalText('noSecondFactor', PROVIDER_NAME))).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Go to your profile' })).toHaveAttribute('href', paths.app.profile.href());
    expect(screen.queryByRole('link', { name: /Request access/ })).toBeNull();
  });

  it('links to the open request instead when there is one', async () => {
    renderRefused('case=notAuthorized&systemId=2&systemName=Study%20Data%20Capture&openRequestId=12');
    expect(await screen.findByRole('link', { name: 'View your open request' })).toHaveAttribute(
      'href',
      paths.app.profile.href('history'),
    );
    expect(screen.getByText(/open request that includes Study Data Capture/)).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: /Request access/ })).toBeNull();
    // Nobody signed in here: the way back is the sign-in page.
    expect(screen.getByRole('link', { name: 'Go to the sign-in page' })).toHaveAttribute('href', '/');
  });
});
