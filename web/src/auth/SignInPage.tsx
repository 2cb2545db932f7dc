import {
  Alert,
  Anchor,
  Button,
  Divider,
  Group,
  Paper,
  PasswordInput,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { translateFieldErrors, type TokenCreateBody, type TokenCreateResponse } from '@portal/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type ChangeEvent, type FormEvent, useEffect, useRef, useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router-dom';
import { ApiError } from '../lib/apiClient';
import { PRIVACY_URL } from '../lib/config';
import { paths } from '../lib/paths';
import { afterSignInPath, changePasswordPath, endSignOut } from '../lib/session';
import { createPasskeySession, createSession } from '../lib/token';
import { PasskeyError, passkeysSupported } from '../lib/webauthn';
import { usePageTitle } from '../shared/usePageTitle';
import { signInFailureText } from './signInFailure';

const LABELS = { username: 'Username or Email Address', password: 'Password' } as const;

/**
 * Sign-in page '/' (000 §2 Sign-in screen, §4 Sign-in, §5 Sign-in validation, §8 Sign-in texts). On success
 * it stores the auth state (timeout, lastSeen, passwordExpiryState) and goes to /change-password when the
 * password expires soon, otherwise to the redirect path or the dashboard. 'Sign in with a passkey'
 * (docs/decisions.md "Passkeys") signs in with a discoverable passkey instead, no second step after it; its
 * refusals are the API's words, and one whose password must be changed is sent to the password form.
 */
export function SignInPage() {
  usePageTitle('Sign In');
  const [search] = useSearchParams();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [failure, setFailure] = useState<string | null>(null);
  const usernameField = useRef<HTMLInputElement>(null);
  const message = search.get('message');
  // The sign-out that brought the user here has landed (000 §4 Sign-out).
  useEffect(() => endSignOut(), []);

  // Two fields in plain state: @mantine/form (about 3 KB gzip with its helpers) stays out of the first load,
  // whose budget is 150 KB (issue 14); every other form of the app uses it.
  const [values, setValues] = useState<TokenCreateBody>({ username: '', password: '' });
  const [errors, setErrors] = useState<Partial<Record<keyof TokenCreateBody, string>>>({});
  const field = (name: keyof TokenCreateBody) => ({
    value: values[name],
    error: errors[name],
    onChange: (e: ChangeEvent<HTMLInputElement>) => {
      const value = e.currentTarget.value;
      setValues((v) => ({ ...v, [name]: value }));
      setErrors(({ [name]: _, ...rest }) => rest);
    },
  });
  const submit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const missing = {
      ...(values.username.trim() ? {} : { username: translateFieldErrors(LABELS.username, ['required']) }),
      ...(values.password ? {} : { password: translateFieldErrors(LABELS.password, ['required']) }),
    };
    setErrors(missing);
    if (Object.keys(missing).length === 0)
      signIn.mutate({ username: values.username.trim(), password: values.password });
  };

  const signIn = useMutation({
    mutationFn: async (body: TokenCreateBody) => ({ username: body.username, data: await createSession(body) }),
    onMutate: () => setFailure(null),
    onSuccess: ({ username, data }) => {
      queryClient.clear();
      // Issue 37: a person with a second factor takes the second step first, then goes on; one whose roles
      // require a factor and who has none adds one, after a password change the sign-in asked for.
      const enrol = data?.secondFactorEnrolment;
      const onward = enrol ? new URLSearchParams({ redirectPath: paths.app.signInMethod.enrol.path }) : search;
      const then = data?.passwordExpiresSoon
        ? changePasswordPath(username, onward)
        : enrol
          ? paths.app.signInMethod.enrol.href
          : afterSignInPath(search);
      const methods = data?.secondFactor?.methods;
      void navigate(methods ? paths.secondStep.href(then, { methods }) : then, { replace: true });
    },
    onError: (error) => {
      if (error instanceof ApiError && error.status === 422 && Object.keys(error.fieldErrors).length) {
        const next: Record<string, string> = {};
        for (const [key, reasons] of Object.entries(error.fieldErrors)) {
          const label = LABELS[key as keyof typeof LABELS] ?? key;
          next[key] = translateFieldErrors(label, reasons);
        }
        setErrors(next);
        return;
      }
      if (error instanceof ApiError && error.status === 429) return setFailure(error.message);
      setFailure(
        signInFailureText(error instanceof ApiError ? (error.body as Partial<TokenCreateResponse>) : undefined),
      );
    },
  });

  const passkey = useMutation({
    mutationFn: createPasskeySession,
    onMutate: () => setFailure(null),
    onSuccess: (data) => {
      queryClient.clear();
      // No username was typed; the Change Password screen needs one only after a forced change, which a
      // passkey sign-in never gives (the API sends that person to the password form).
      void navigate(data?.passwordExpiresSoon ? changePasswordPath('', search) : afterSignInPath(search), {
        replace: true,
      });
    },
    onError: (error) => {
      if (error instanceof PasskeyError) return setFailure(error.message);
      const body = error instanceof ApiError ? (error.body as Partial<TokenCreateResponse>) : undefined;
      if (error instanceof ApiError && error.status === 429) return setFailure(error.message);
      if (body?.usePasswordForm) {
        setFailure(body.message ?? signInFailureText(body));
        return usernameField.current?.focus();
      }
      setFailure(body?.message ?? signInFailureText(body));
    },
  });
  const busy = signIn.isPending || passkey.isPending;

  return (
    <Paper withBorder shadow="sm" p="xl" radius="md" w="100%" maw={420} mx="auto">
      <form onSubmit={submit} noValidate aria-labelledby="sign-in-title">
        <Stack gap="md">
          <Title order={1} id="sign-in-title">
            Sign In
          </Title>
          {message && (
            <Text c="red" fw={500} role="status" data-testid="sign-in-message">
              {message}
            </Text>
          )}
          {failure && (
            <Alert color="red" title="Sign in failed" role="alert">
              {failure}
            </Alert>
          )}
          <TextInput
            ref={usernameField}
            label={LABELS.username}
            autoComplete="username"
            required
            autoFocus
            {...field('username')}
          />
          <PasswordInput label={LABELS.password} autoComplete="current-password" required {...field('password')} />
          <Button
            type="submit"
            loading={signIn.isPending}
            disabled={passkey.isPending}
            fullWidth
            loaderProps={{ role: 'status', 'aria-label': 'Signing in' }}
          >
            Sign In
          </Button>
          {passkeysSupported() && (
            <>
              <Divider label="or" labelPosition="center" />
              <Button
                variant="default"
                fullWidth
                loading={passkey.isPending}
                disabled={busy && !passkey.isPending}
                loaderProps={{ role: 'status', 'aria-label': 'Signing in with a passkey' }}
                onClick={() => passkey.mutate()}
              >
                Sign in with a passkey
              </Button>
            </>
          )}
          <Group justify="space-between">
            <Anchor component={Link} to={paths.register.href} size="sm">
              Need an account?
            </Anchor>
            <Anchor component={Link} to={paths.forgotPassword.href} size="sm">
              Forgot Password?
            </Anchor>
          </Group>
          <Anchor href={PRIVACY_URL} target="_blank" rel="noopener noreferrer" size="sm" ta="center">
            Privacy and Terms of Use
          </Anchor>
        </Stack>
      </form>
    </Paper>
  );
}
