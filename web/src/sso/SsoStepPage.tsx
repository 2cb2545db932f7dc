import { Anchor, Stack, Title } from '@mantine/core';
import { ACR, MESSAGES, type SsoLoginAnswer } from '@portal/contract';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { Link, useNavigate, useParams } from 'react-router-dom';
import { ApiError, getXsrfToken } from '../lib/apiClient';
import { getAuthState } from '../lib/authState';
import { paths } from '../lib/paths';
import { changePasswordPath, clearSession, signInReturningTo } from '../lib/session';
import { LoadError } from '../shared/ErrorAlert';
import { PageLoader } from '../shared/PageLoader';
import { usePageTitle } from '../shared/usePageTitle';
import { useSsoLogin } from './api/postSsoLogin';
import { leavePortal } from './leavePortal';

/** The texts of the sign-in step (issue 22). */
export const SSO_STEP_TEXTS = {
  title: 'Single sign-on',
  loading: 'Signing you in…',
  failed: 'The portal could not finish signing you in to the application.',
} as const;

/** Where the step leads when there is no usable portal session, or null to go ahead and post. */
function withoutSession(uid: string): string | null {
  const here = paths.app.sso.step.href(uid);
  if (!getXsrfToken()) return signInReturningTo(here, MESSAGES.signIn.pleaseSignIn);
  const auth = getAuthState();
  if (auth?.passwordExpiryState === 'FORCE_CHANGE') {
    return changePasswordPath(auth.username ?? '', new URLSearchParams({ redirectPath: here }));
  }
  return null;
}

/**
 * The portal's same-site sign-in step of a single sign-on (issue 22) at /app/sso/:uid: the provider's
 * interaction sends the browser here, where the SameSite=Strict session cookie is sent again. Without the
 * secure shell: it shows 'Signing you in…' while it posts to the provider's login step once; CONTINUE goes on
 * to the provider, REFUSED to the refusal page; without a portal session (no token, or a 401) to the sign-in
 * page, which returns here; a forced password change first; any other failure says so, with a retry. Issue 37:
 * STEP_UP goes to the second step and SIGN_IN_AGAIN to the sign-in page (saying why), each returning here.
 */
export function SsoStepPage() {
  usePageTitle(SSO_STEP_TEXTS.title);
  const { uid = '' } = useParams();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const redirect = withoutSession(uid);

  const here = paths.app.sso.step.href(uid);
  const onAnswer = (answer: SsoLoginAnswer) => {
    if (answer.outcome === 'CONTINUE') return leavePortal(answer.redirectTo);
    // Issue 37: the system asks for more than this session has; both pages come back here afterwards.
    if (answer.outcome === 'STEP_UP') {
      // The phishing-resistant level is reached with a passkey only: the second step offers nothing else.
      const level = answer.level === ACR.phishingResistant ? ('phr' as const) : undefined;
      return void navigate(paths.secondStep.href(here, { level }), { replace: true });
    }
    if (answer.outcome === 'SIGN_IN_AGAIN') {
      // The live session stays until the new sign-in replaces it (the API ends the one the browser sent).
      return void navigate(signInReturningTo(here, MESSAGES.signIn.signInAgain), { replace: true });
    }
    const { case: kase, system, openRequestId, message } = answer;
    // The server's text (with its configured provider name) goes along as router state, never in the URL.
    void navigate(paths.app.sso.refused.href({ case: kase, system, openRequestId }), {
      replace: true,
      state: { message },
    });
  };
  const login = useSsoLogin({
    mutationConfig: {
      onSuccess: onAnswer,
      onError: (error) => {
        if (!(error instanceof ApiError && error.status === 401)) return;
        clearSession(queryClient);
        void navigate(signInReturningTo(paths.app.sso.step.href(uid), MESSAGES.signIn.pleaseSignIn), {
          replace: true,
        });
      },
    },
  });

  // One post per interaction (StrictMode runs effects twice; the provider takes each interaction's login once).
  const posted = useRef<string | null>(null);
  const { mutate } = login;
  useEffect(() => {
    if (redirect) {
      void navigate(redirect, { replace: true });
      return;
    }
    if (posted.current === uid) return;
    posted.current = uid;
    mutate(uid);
  }, [uid, redirect, navigate, mutate]);

  const error = login.error;
  const failed = error && !(error instanceof ApiError && error.status === 401);
  return (
    <Stack gap="md" py="md">
      <Title order={1}>{SSO_STEP_TEXTS.title}</Title>
      {failed ? (
        <>
          <LoadError
            text={error instanceof ApiError && error.status === 0 ? error.message : SSO_STEP_TEXTS.failed}
            onRetry={() => login.mutate(uid)}
          />
          <Anchor component={Link} to={paths.app.dashboard.href}>
            Go to the dashboard
          </Anchor>
        </>
      ) : (
        <PageLoader label={SSO_STEP_TEXTS.loading} />
      )}
    </Stack>
  );
}
