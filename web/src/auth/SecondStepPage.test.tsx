/**
 * The sign-in's second step (issue 37) on mocked HTTP: the sign-in of a person with a factor goes to it with
 * the way on; a wrong code shows 000 §8's text with the lockout warning; a recovery code is sent as one; an
 * accepted code goes on to `next` (never to another site); a session whose step expired goes back to sign-in.
 */
import { MESSAGES } from '@portal/contract';
import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { setXsrfToken } from '../lib/apiClient';
import { paths } from '../lib/paths';
import { mockApi, reply } from '../testing/mockApi';
import { renderRoute } from '../testing/render';
import { SecondStepPage, secondStepNext } from './SecondStepPage';
import { SignInPage } from './SignInPage';

const STEP = 'POST /rest/secure/token/second_factor';

function renderStep(next = '/app/requests?tab=mine') {
  setXsrfToken('xsrf-1');
  const view = renderRoute({
    path: paths.secondStep.path,
    url: paths.secondStep.href(next, { methods: ['TOTP', 'RECOVERY_CODE'] }),
    element: <SecondStepPage />,
    permissions: [],
    otherRoutes: [
      { path: '/', element: <p>Sign-in page</p> },
      { path: '/app/*', element: <p>App page</p> },
    ],
  });
  const at = () => `${view.router.state.location.pathname}${view.router.state.location.search}`;
  return { ...view, at };
}

describe('the second sign-in step', () => {
  it('follows a sign-in that asks for it, keeping where the person was going', async () => {
    mockApi({
      'POST /rest/token/create': () =>
        reply(200, {
          tokenTimeoutInSeconds: 3600,
          passwordExpiresSoon: false,
          xsrfToken: 'x',
          secondFactor: { methods: ['TOTP'] },
        }),
    });
    const view = renderRoute({
      path: '/',
      url: '/?redirectPath=%2Fapp%2Fusers',
      element: <SignInPage />,
      permissions: [],
      otherRoutes: [{ path: paths.secondStep.path, element: <p>Second step page</p> }],
    });
    await view.user.type(screen.getByLabelText(/Username or Email Address/), 'staff');
    await view.user.type(screen.getByLabelText(/^Password/), 'secret');
    await view.user.click(screen.getByRole('button', { name: 'Sign In' }));
    expect(await screen.findByText('Second step page')).toBeInTheDocument();
    const onward = new URLSearchParams(view.router.state.location.search);
    expect(onward.get('next')).toBe('/app/users');
    expect(onward.get('methods')).toBe('TOTP');
  });

  it('shows the refusal with the lockout warning, then goes on once a code is accepted', async () => {
    let calls = 0;
    const api = mockApi({
      [STEP]: () =>
        ++calls === 1
          ? reply(401, { credentialsInvalid: true, attemptsLeftUntilLocked: 2 })
          : reply(200, { tokenTimeoutInSeconds: 3600, passwordExpiresSoon: false }),
    });
    const { user, at } = renderStep();
    await user.click(screen.getByRole('button', { name: 'Verify' }));
    expect(await screen.findByText('Authentication code is required')).toBeVisible();
    await user.type(screen.getByLabelText(/Authentication code/), '000000');
    await user.click(screen.getByRole('button', { name: 'Verify' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      `${MESSAGES.signIn.credentialsInvalid} ${MESSAGES.signIn.lockoutWarning(2)}`,
    );
    await user.clear(screen.getByLabelText(/Authentication code/));
    await user.type(screen.getByLabelText(/Authentication code/), '123 456');
    await user.click(screen.getByRole('button', { name: 'Verify' }));
    await waitFor(() => expect(at()).toBe('/app/requests?tab=mine'));
    expect(api.callsTo(STEP).map((c) => c.body)).toEqual([{ code: '000000' }, { code: '123 456' }]);
  });

  it('sends a recovery code as one, and a locked account can only go back to sign-in', async () => {
    const api = mockApi({ [STEP]: () => reply(401, { accountLocked: true }) });
    const { user } = renderStep();
    await user.click(screen.getByRole('button', { name: 'Use a recovery code' }));
    await user.type(screen.getByLabelText(/Recovery code/), 'abcd-efgh');
    await user.click(screen.getByRole('button', { name: 'Verify' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(MESSAGES.signIn.accountLocked);
    expect(screen.getByRole('link', { name: 'Back to Sign In' })).toBeVisible();
    expect(screen.getByRole('button', { name: 'Verify' })).toBeDisabled();
    expect(api.callsTo(STEP)[0]?.body).toEqual({ recoveryCode: 'abcd-efgh' });
  });

  it('goes back to sign-in when the step is no longer open (its 5 minutes passed)', async () => {
    mockApi({ [STEP]: () => reply(401, { message: 'Please sign in' }) });
    const { user, at } = renderStep();
    await user.type(screen.getByLabelText(/Authentication code/), '123456');
    await user.click(screen.getByRole('button', { name: 'Verify' }));
    expect(await screen.findByText('Sign-in page')).toBeInTheDocument();
    expect(new URLSearchParams(at().split('?')[1]).get('message')).toBe('Please sign in');
  });

  it('goes on only inside the portal', () => {
    expect(secondStepNext(new URLSearchParams({ next: 'https://evil.example/app/' }))).toMatch(/^\/app\/dashboard/);
    expect(secondStepNext(new URLSearchParams({ next: '//evil.example/app/' }))).toMatch(/^\/app\/dashboard/);
    expect(secondStepNext(new URLSearchParams({ next: '/change-password?username=a' }))).toBe(
      '/change-password?username=a',
    );
  });
});
