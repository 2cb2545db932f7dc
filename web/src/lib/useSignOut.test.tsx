/**
 * Sign-out followed at once by a new sign-in (000 §4 Sign-out, Sign-in) on mocked HTTP: the sign-in page
 * shows before the invalidate call has answered, so a person (or a journey) can sign in again while it is
 * under way. The new session must survive the old one's ending: its XSRF token and auth state are not
 * cleared by the late answer, and the token/create call waits for the invalidate call, whose answer clears
 * the session cookie in a real browser.
 */
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, renderHook } from '@testing-library/react';
import type { ReactNode } from 'react';
import { MemoryRouter } from 'react-router-dom';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { mockApi, reply } from '../testing/mockApi';
import { getXsrfToken, setXsrfToken } from './apiClient';
import { getAuthState } from './authState';
import { createSession } from './token';
import { useSignOut } from './useSignOut';

afterEach(() => {
  vi.restoreAllMocks();
  localStorage.clear();
});

const INVALIDATE = 'POST /rest/secure/token/invalidate';
const CREATE = 'POST /rest/token/create';

describe('sign-out, then a sign-in before the invalidate call answers', () => {
  it('sends token/create only after the invalidate answer and keeps the new session', async () => {
    let answerInvalidate: () => void = () => {};
    const invalidated = new Promise<void>((resolve) => (answerInvalidate = resolve));
    const api = mockApi({
      [INVALIDATE]: async () => {
        await invalidated;
        return reply(204);
      },
      [CREATE]: () => reply(200, { xsrfToken: 'new-xsrf', tokenTimeoutInSeconds: 3600 }),
    });
    setXsrfToken('old-xsrf');
    const queryClient = new QueryClient();
    const wrapper = ({ children }: { children: ReactNode }) => (
      <QueryClientProvider client={queryClient}>
        <MemoryRouter initialEntries={['/app/dashboard']}>{children}</MemoryRouter>
      </QueryClientProvider>
    );
    const { result } = renderHook(() => useSignOut(), { wrapper });

    let signedOut: Promise<void> = Promise.resolve();
    await act(async () => {
      signedOut = result.current();
      await vi.waitFor(() => expect(api.callsTo(INVALIDATE)).toHaveLength(1));
    });
    const signedIn = createSession({ username: 'jdoe', password: 'secret' });
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(api.callsTo(CREATE)).toHaveLength(0);

    answerInvalidate();
    await act(async () => {
      await Promise.all([signedOut, signedIn]);
    });
    expect(api.callsTo(CREATE)).toHaveLength(1);
    expect(getXsrfToken()).toBe('new-xsrf');
    expect(getAuthState()?.username).toBe('jdoe');
  });
});
