import { Alert, Anchor, Button, Group, Paper, Stack, Text, TextInput, Title } from '@mantine/core';
import type { TokenCreateResponse } from '@portal/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useRef, useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router-dom';
import { ApiError, request } from '../lib/apiClient';
import { getAuthState } from '../lib/authState';
import { paths } from '../lib/paths';
import { changePasswordPath, signInUrl } from '../lib/session';
import { invalidateSession } from '../lib/token';
import { usePageTitle } from '../shared/usePageTitle';
import { signInFailureText } from './signInFailure';

type Method = 'code' | 'recoveryCode';

const LABELS: Record<Method, string> = { code: 'Authentication code', recoveryCode: 'Recovery code' };

/**
 * `next` when it is a path inside the app or the standalone password change the sign-in asked for (never
 * another site), else the dashboard.
 */
export function secondStepNext(search: URLSearchParams): string {
  const next = search.get('next');
  const inside = [`${paths.app.root.path}/`, `${paths.changePassword.path}?`];
  return next && inside.some((p) => next.startsWith(p)) ? next : paths.app.dashboard.afterSignIn(false);
}

/** Where a forced password change continues to once it is done: `next`, split as the sign-in's redirect. */
function afterStepWithPasswordChange(next: string): string {
  const [pathname = '', query = ''] = next.split('?', 2);
  const params = new URLSearchParams({ redirectPath: pathname });
  if (query) params.set('redirectParams', query);
  return changePasswordPath(getAuthState()?.username ?? '', params);
}

/**
 * The sign-in's second step '/second-step?next=' (issue 37; docs/decisions.md "Second factors"): a code from
 * the person's authenticator app, or one of their recovery codes. It also serves the step-up a study system's
 * multi-factor demand asks for. Accepted: on to `next`, or first to the forced password change when the
 * password step asked for one (000 §4). Refused: 000 §8's texts, the lockout warning included; a locked
 * account or a session whose 5 minutes have passed goes back to sign-in.
 */
export function SecondStepPage() {
  usePageTitle('Second Sign-In Step');
  const [search] = useSearchParams();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const next = secondStepNext(search);
  const [method, setMethod] = useState<Method>('code');
  const [value, setValue] = useState('');
  const [error, setError] = useState<string | undefined>();
  const [failure, setFailure] = useState<string | null>(null);
  const field = useRef<HTMLInputElement>(null);

  const step = useMutation({
    mutationFn: async (body: Record<string, string>) =>
      (
        await request<TokenCreateResponse>('POST', '/rest/secure/token/second_factor', {
          body,
          ignoreUnauthorized: true,
        })
      ).data,
    onMutate: () => setFailure(null),
    onSuccess: (data) => {
      void queryClient.invalidateQueries();
      const force = data?.passwordExpiresSoon && !next.startsWith(paths.changePassword.path);
      void navigate(force ? afterStepWithPasswordChange(next) : next, { replace: true });
    },
    onError: (err) => {
      const body = err instanceof ApiError ? (err.body as Partial<TokenCreateResponse>) : undefined;
      const flagged = body && (body.credentialsInvalid || body.accountLocked);
      if (err instanceof ApiError && err.status === 401 && !flagged) {
        // The 5 minutes passed, or the session ended elsewhere: sign in again.
        return void navigate(signInUrl(err.message, { pathname: '/', search: '' }), { replace: true });
      }
      if (err instanceof ApiError && err.status === 422) return setError(`${LABELS[method]} is not valid`);
      setFailure(signInFailureText(body));
    },
  });
  const locked = step.error instanceof ApiError && !!(step.error.body as Partial<TokenCreateResponse>).accountLocked;

  const submit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const typed = value.trim();
    if (!typed) return setError(`${LABELS[method]} is required`);
    step.mutate(method === 'code' ? { code: typed } : { recoveryCode: typed });
  };
  const switchTo = (m: Method) => {
    setMethod(m);
    setValue('');
    setError(undefined);
    // The other field is what the person types next (the toggle stays behind it in the tab order).
    requestAnimationFrame(() => field.current?.focus());
  };
  const cancel = async () => {
    await invalidateSession();
    void navigate(paths.signIn.href, { replace: true });
  };

  return (
    <Paper withBorder shadow="sm" p="xl" radius="md" w="100%" maw={420} mx="auto">
      <form onSubmit={submit} noValidate aria-labelledby="second-step-title">
        <Stack gap="md">
          <Title order={1} id="second-step-title">
            Second Sign-In Step
          </Title>
          <Text size="sm">
            {method === 'code'
              ? 'Enter the 6-digit code your authenticator app shows for this portal.'
              : 'Enter one of the recovery codes you saved. Each code works once.'}
          </Text>
          {failure && (
            <Alert color="red" title="Sign in failed" role="alert">
              {failure}
              {locked && (
                <>
                  {' '}
                  <Anchor component={Link} to={paths.signIn.href}>
                    Back to Sign In
                  </Anchor>
                </>
              )}
            </Alert>
          )}
          <TextInput
            ref={field}
            label={LABELS[method]}
            required
            autoFocus
            value={value}
            error={error}
            disabled={locked}
            onChange={(e) => {
              setValue(e.currentTarget.value);
              setError(undefined);
            }}
            {...(method === 'code'
              ? { inputMode: 'numeric' as const, autoComplete: 'one-time-code', maxLength: 8 }
              : { autoComplete: 'off', spellCheck: false })}
          />
          <Button type="submit" loading={step.isPending} disabled={locked} fullWidth>
            Verify
          </Button>
          <Group justify="space-between">
            <Anchor
              component="button"
              type="button"
              size="sm"
              onClick={() => switchTo(method === 'code' ? 'recoveryCode' : 'code')}
            >
              {method === 'code' ? 'Use a recovery code' : 'Use the authenticator app'}
            </Anchor>
            <Anchor component="button" type="button" size="sm" onClick={() => void cancel()}>
              Cancel and sign out
            </Anchor>
          </Group>
        </Stack>
      </form>
    </Paper>
  );
}
