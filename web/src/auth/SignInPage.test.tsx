/**
 * Sign-in (000 §2 Sign-in screen, §5 Sign-in validation) on mocked HTTP: both fields required before any
 * call, an error leaves its field as the user types, the server's 422 lands under its field, and the
 * username is sent trimmed.
 */
import { screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { mockApi, reply } from '../testing/mockApi';
import { renderRoute } from '../testing/render';
import { SignInPage } from './SignInPage';

afterEach(() => vi.restoreAllMocks());

const TOKEN = 'POST /rest/token/create';

describe('Sign In', () => {
  it('requires both fields before calling, and clears a field error as the user types', async () => {
    const api = mockApi({});
    const { user } = renderRoute({ path: '/', url: '/', element: <SignInPage />, permissions: [] });
    await user.click(screen.getByRole('button', { name: 'Sign In' }));
    expect(await screen.findByText('Username or Email Address is required')).toBeVisible();
    expect(screen.getByText('Password is required')).toBeVisible();
    expect(api.calls).toEqual([]);
    await user.type(screen.getByLabelText(/Username or Email Address/), 'a');
    expect(screen.queryByText('Username or Email Address is required')).toBeNull();
    expect(screen.getByText('Password is required')).toBeVisible();
  });

  it('sends the username trimmed and shows the server 422 under its field', async () => {
    const api = mockApi({ [TOKEN]: () => reply(422, { fieldErrors: { password: ['size'] }, globalErrors: [] }) });
    const { user } = renderRoute({ path: '/', url: '/', element: <SignInPage />, permissions: [] });
    await user.type(screen.getByLabelText(/Username or Email Address/), '  jdoe ');
    await user.type(screen.getByLabelText(/^Password/), 'secret');
    await user.click(screen.getByRole('button', { name: 'Sign In' }));
    expect(await screen.findByText('Password is too long')).toBeVisible();
    expect(api.callsTo(TOKEN)[0]?.body).toEqual({ username: 'jdoe', password: 'secret' });
  });
});
