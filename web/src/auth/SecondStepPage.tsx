import { Alert, Anchor, Button, Group, Paper, Stack, Text, TextInput, Title } from '@mantine/core';
import { PASSKEY_TEXTS, type TokenCreateResponse } from '@portal/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useRef, useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router-dom';
import { ApiError, request } from '../lib/apiClient';
import { getAuthState } from '../lib/authState';
import { paths } from '../lib/paths';
import { changePasswordPath, signInUrl } from '../lib/session';
import { invalidateSession } from '../lib/token';
import { PasskeyError, type PasskeyOptions, signWithPasskey } from '../lib/webauthn';
import { useSsoConfig } from '../shared/api/ssoConfig';
import { PageLoader } from '../shared/PageLoader';
import { usePageTitle } from '../shared/usePageTitle';
import { signInFailureText } from './signInFailure';
import { type StepMethod, useStepMethods } from './stepMethods';

type Method = 'passkey' | 'code' | 'recoveryCode';

const LABELS: Record<Exclude<Method, 'passkey'>, string> = {
  code: 'Authentication code',
  recoveryCode: 'Recovery code',
};
const INTRO: Record<Method, string> = {
  passkey: 'Use your passkey or security key: your browser asks you to confirm with it.',
  code: 'Enter the 6-digit code your authenticator app shows for this portal.',
  recoveryCode: 'Enter one of the recovery codes you saved. Each code works once.',
};
const SWITCH_LABEL: Record<Method, string> = {
  passkey: 'Use a passkey or security key',
  code: 'Use the authenticator app',
  recoveryCode: 'Use a recovery code',
};
const OFFERED_BY: Record<Method, StepMethod> = { passkey: 'WEBAUTHN', code: 'TOTP', recoveryCode: 'RECOVERY_CODE' };

/** What the step asks first: a passkey when the person has one (it cannot be phished), else a code. */
function firstMethod(methods: StepMethod[]): Method {
  if (methods.includes('WEBAUTHN')) return 'passkey';
  return methods.includes('TOTP') || !methods.includes('RECOVERY_CODE') ? 'code' : 'recoveryCode';
}

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

/** The step's passkey answer: this session's challenge (403: the person has no passkey), signed in the browser. */
async function passkeyAnswer() {
  const { data } = await request<{ options: PasskeyOptions }>(
    'POST',
    '/rest/secure/token/second_factor/webauthn/options',
    {
      body: {},
      ignoreUnauthorized: true,
    },
  );
  return { assertion: await signWithPasskey(data!.options) };
}

/**
 * The sign-in's second step '/second-step?next=&methods=&level=' (docs/decisions.md "Second factors",
 * "Passkeys"): a passkey or security key first when the person has one, else a code from their authenticator
 * app, or one of their recovery codes. It also serves the step-up a study system's demand asks for; for the
 * phishing-resistant level (`level=phr`) only the passkey is offered, and a person without one reads why.
 * Accepted: on to `next`, or first to the forced password change when the password step asked for one (000
 * §4). Refused: 000 §8's texts, the lockout warning included; a locked account or a session whose 5 minutes
 * have passed goes back to sign-in.
 */
export function SecondStepPage() {
  usePageTitle('Second Sign-In Step');
  const [search] = useSearchParams();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const next = secondStepNext(search);
  const phishingResistant = search.get('level') === 'phr';
  const offered = useStepMethods(search);
  const sso = useSsoConfig(phishingResistant);
  const [chosen, setChosen] = useState<Method | null>(null);
  const [value, setValue] = useState('');
  const [error, setError] = useState<string | undefined>();
  const [failure, setFailure] = useState<string | null>(null);
  const field = useRef<HTMLInputElement>(null);

  const methods = offered && phishingResistant ? offered.filter((m) => m === 'WEBAUTHN') : offered;
  const method = chosen ?? firstMethod(methods ?? []);
  const noPasskeyText = PASSKEY_TEXTS.noPasskey(sso.data?.providerName ?? 'Frontier Science');

  const step = useMutation({
    mutationFn: async (input: 'passkey' | Record<string, string>) => {
      const body = input === 'passkey' ? await passkeyAnswer() : input;
      return (
        await request<TokenCreateResponse>('POST', '/rest/secure/token/second_factor', {
          body,
          ignoreUnauthorized: true,
        })
      ).data;
    },
    onMutate: () => setFailure(null),
    onSuccess: (data) => {
      void queryClient.invalidateQueries();
      const force = data?.passwordExpiresSoon && !next.startsWith(paths.changePassword.path);
      void navigate(force ? afterStepWithPasswordChange(next) : next, { replace: true });
    },
    onError: (err) => {
      if (err instanceof PasskeyError) return setFailure(err.message);
      const body = err instanceof ApiError ? (err.body as Partial<TokenCreateResponse>) : undefined;
      const flagged = body && (body.credentialsInvalid || body.accountLocked);
      if (err instanceof ApiError && err.status === 401 && !flagged) {
        // The 5 minutes passed, or the session ended elsewhere: sign in again.
        return void navigate(signInUrl(err.message, { pathname: '/', search: '' }), { replace: true });
      }
      // The passkey's options are refused to a person without one (it was removed meanwhile).
      if (err instanceof ApiError && err.status === 403 && method === 'passkey') return setFailure(noPasskeyText);
      if (err instanceof ApiError && err.status === 422 && method !== 'passkey') {
        return setError(`${LABELS[method]} is not valid`);
      }
      setFailure(signInFailureText(body));
    },
  });
  const locked = step.error instanceof ApiError && !!(step.error.body as Partial<TokenCreateResponse>).accountLocked;

  const submit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    if (method === 'passkey') return step.mutate('passkey');
    const typed = value.trim();
    if (!typed) return setError(`${LABELS[method]} is required`);
    step.mutate(method === 'code' ? { code: typed } : { recoveryCode: typed });
  };
  const switchTo = (m: Method) => {
    setChosen(m);
    setValue('');
    setError(undefined);
    setFailure(null);
    // The other field is what the person types next (the toggles stay behind it in the tab order).
    requestAnimationFrame(() => field.current?.focus());
  };
  const cancel = async () => {
    await invalidateSession();
    void navigate(paths.signIn.href, { replace: true });
  };

  if (!methods) return <PageLoader label="Loading your sign-in methods" />;
  const others = (['passkey', 'code', 'recoveryCode'] as const).filter(
    (m) => m !== method && methods.includes(OFFERED_BY[m]),
  );
  const none = phishingResistant && methods.length === 0;

  return (
    <Paper withBorder shadow="sm" p="xl" radius="md" w="100%" maw={420} mx="auto">
      <form onSubmit={submit} noValidate aria-labelledby="second-step-title">
        <Stack gap="md">
          <Title order={1} id="second-step-title">
            Second Sign-In Step
          </Title>
          {none ? (
            <Alert color="blue" title="A passkey is needed" role="status">
              {noPasskeyText}{' '}
              <Anchor component={Link} to={paths.app.profile.href('security')}>
                Open Security in your profile
              </Anchor>
            </Alert>
          ) : (
            <Text size="sm">
              {phishingResistant && 'The application asks for a sign-in with a passkey or security key. '}
              {INTRO[method]}
            </Text>
          )}
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
          {method !== 'passkey' && !none && (
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
          )}
          {!none && (
            <Button type="submit" loading={step.isPending} disabled={locked} fullWidth autoFocus={method === 'passkey'}>
              {method === 'passkey' ? 'Use a passkey' : 'Verify'}
            </Button>
          )}
          <Group justify="space-between">
            {others.map((m) => (
              <Anchor key={m} component="button" type="button" size="sm" onClick={() => switchTo(m)}>
                {SWITCH_LABEL[m]}
              </Anchor>
            ))}
            <Anchor component="button" type="button" size="sm" onClick={() => void cancel()}>
              Cancel and sign out
            </Anchor>
          </Group>
        </Stack>
      </form>
    </Paper>
  );
}
