/**
 * The single sign-on step /app/sso/:uid (issue 22) on mocked HTTP: without a session it goes to sign-in with
 * the way back here, without posting; with one it posts once and goes on to the provider (CONTINUE), to the
 * refusal page (REFUSED), to sign-in on a 401, or shows the failure with a retry; (issue 37) to the second step
 * (STEP_UP) and to sign-in saying why (SIGN_IN_AGAIN), each returning here.
 */
import { MESSAGES, SSO_LOGIN_PATH, type SsoLoginAnswer } from '@portal/contract';
import { screen, waitFor } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { setXsrfToken } from '../lib/apiClient';
import { paths } from '../lib/paths';
import { mockApi, reply, sequence, type Handler } from '../testing/mockApi';
import { referenceHandlers } from '../testing/referenceFixtures';
import { renderRoute } from '../testing/render';
import { leavePortal } from './leavePortal';
import { SsoRefusedPage } from './SsoRefusedPage';
import { SsoStepPage } from './SsoStepPage';

vi.mock('./leavePortal', () => ({ leavePortal: vi.fn() }));

const UID = 'Abc-123_xyz';
const LOGIN = `POST ${SSO_LOGIN_PATH(UID)}`;

function renderStep(login?: Handler) {
  const api = mockApi({ ...referenceHandlers, ...(login ? { [LOGIN]: login } : {}) });
  const view = renderRoute({
    path: paths.app.sso.step.path,
    url: paths.app.sso.step.href(UID),
    element: <SsoStepPage />,
    otherRoutes: [
      { path: '/', element: <p>Sign-in page</p> },
      { path: paths.secondStep.path, element: <p>Second step page</p> },
      { path: paths.app.sso.refused.path, element: <SsoRefusedPage /> },
    ],
  });
  const at = () => `${view.router.state.location.pathname}${view.router.state.location.search}`;
  return { ...view, api, at };
}

beforeEach(() => {
  vi.mocked(leavePortal).mockClear();
});

describe('the single sign-on step', () => {
  it('goes to sign-in, returning here afterwards, when there is no session token', async () => {
    const { api, at } = renderStep();
    expect(await screen.findByText('Sign-in page')).toBeInTheDocument();
    const search = new URLSearchParams(at().split('?')[1]);
    expect(search.get('redirectPath')).toBe(`/app/sso/${UID}`);
    expect(search.get('message')).toBe('Please sign in');
    expect(api.calls).toHaveLength(0);
  });

  it('shows that it is signing in, posts once with an empty body and goes on to the provider', async () => {
    setXsrfToken('xsrf-1');
    let answer!: (r: Response) => void;
    const { api } = renderStep(() => new Promise<Response>((resolve) => (answer = resolve)));
    expect(await screen.findByRole('status')).toHaveTextContent('Signing you in…');
    answer(
      reply(200, { outcome: 'CONTINUE', redirectTo: 'http://portal.test/oidc/auth/Abc' } satisfies SsoLoginAnswer),
    );
    await waitFor(() => expect(leavePortal).toHaveBeenCalledWith('http://portal.test/oidc/auth/Abc'));
    expect(api.callsTo(LOGIN)).toEqual([expect.objectContaining({ body: {} })]);
  });

  it("goes to the refusal page with the case, the system, the open request and the server's text", async () => {
    setXsrfToken('xsrf-1');
    const refused: SsoLoginAnswer = {
      outcome: 'REFUSED',
      case: 'notAuthorized',
      message: 'You are not authorized to access the requested Acme Research portal application.',
      system: { id: 4, systemName: 'Electronic Data Capture' },
      openRequestId: 12,
    };
    const { at } = renderStep(() => reply(200, refused));
    expect(await screen.findByText(refused.message)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'View your open request' })).toBeInTheDocument();
    expect(at()).toBe(
      '/app/sso/refused?case=notAuthorized&systemId=4&systemName=Electronic%20Data%20Capture&openRequestId=12',
    );
    expect(leavePortal).not.toHaveBeenCalled();
  });

  it('goes to the second step when the system asks for multi-factor, returning here (issue 37)', async () => {
    setXsrfToken('xsrf-1');
    const { at, api } = renderStep(() => reply(200, { outcome: 'STEP_UP' } satisfies SsoLoginAnswer));
    expect(await screen.findByText('Second step page')).toBeInTheDocument();
    expect(at()).toBe(`/second-step?next=${encodeURIComponent(`/app/sso/${UID}`)}`);
    expect(new URLSearchParams(at().split('?')[1]).get('next')).toBe(paths.app.sso.step.href(UID));
    expect(api.callsTo(LOGIN)).toHaveLength(1);
    expect(leavePortal).not.toHaveBeenCalled();
    // The session stays: the step-up is taken with it.
    expect(localStorage.getItem('xsrfToken')).toBe('xsrf-1');
  });

  it('goes to sign-in, saying why and returning here, when the system asks for a new sign-in (issue 37)', async () => {
    setXsrfToken('xsrf-1');
    const { at } = renderStep(() => reply(200, { outcome: 'SIGN_IN_AGAIN' } satisfies SsoLoginAnswer));
    expect(await screen.findByText('Sign-in page')).toBeInTheDocument();
    const search = new URLSearchParams(at().split('?')[1]);
    expect(search.get('redirectPath')).toBe(`/app/sso/${UID}`);
    expect(search.get('message')).toBe(MESSAGES.signIn.signInAgain);
    expect(leavePortal).not.toHaveBeenCalled();
  });

  it('signs in again on a 401 (the portal session has ended), returning here', async () => {
    setXsrfToken('stale');
    const { at } = renderStep(() => reply(401, { message: 'Not signed in' }));
    expect(await screen.findByText('Sign-in page')).toBeInTheDocument();
    expect(new URLSearchParams(at().split('?')[1]).get('redirectPath')).toBe(`/app/sso/${UID}`);
    expect(localStorage.getItem('xsrfToken')).toBeNull();
  });

  it('shows a failure with a retry, and never goes to a script address', async () => {
    setXsrfToken('xsrf-1');
    const { user, api } = renderStep(
      sequence(
        () => reply(500, { message: 'boom' }),
        () => reply(200, { outcome: 'CONTINUE', redirectTo: 'javascript:alert(1)' }),
        () => reply(200, { outcome: 'CONTINUE', redirectTo: '/oidc/auth/Abc' }),
      ),
    );
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'The portal could not finish signing you in to the application.',
    );
    expect(screen.queryByText('boom')).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    await waitFor(() => expect(api.callsTo(LOGIN)).toHaveLength(2));
    expect(await screen.findByRole('alert')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    await waitFor(() => expect(leavePortal).toHaveBeenCalledWith('/oidc/auth/Abc'));
    expect(leavePortal).toHaveBeenCalledTimes(1);
  });
});
