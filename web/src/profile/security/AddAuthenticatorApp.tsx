import { Alert, Button, Code, Group, Image, PasswordInput, Stack, Text, TextInput } from '@mantine/core';
import type { ConfirmTotpAnswer, TotpEnrolmentAnswer } from '@portal/contract';
import { type FormEvent, useEffect, useRef, useState } from 'react';
import { useBeginTotp, useConfirmTotp } from './api';
import { errorText, fieldError } from './errorText';
import { RecoveryCodesList } from './RecoveryCodesList';

/** A step's refusal (when no field shows it) and its buttons. */
function StepFooter(props: {
  error: unknown;
  fields: string[];
  pending: boolean;
  submit: string;
  onCancel?: () => void;
}) {
  const { error, fields, pending, submit, onCancel } = props;
  return (
    <>
      {!!error && fields.every((f) => !fieldError(error, f)) && (
        <Alert color="red" role="alert">
          {errorText(error)}
        </Alert>
      )}
      <Group>
        <Button type="submit" loading={pending}>
          {submit}
        </Button>
        {onCancel && (
          <Button variant="default" onClick={onCancel}>
            Cancel
          </Button>
        )}
      </Group>
    </>
  );
}

/**
 * Adding an authenticator app (issue 37; docs/decisions.md "Second factors"), in three steps: the password
 * again and the device's name; the secret as a QR code and as text (shown once) with a code from the app; then
 * either the mailed link to follow (a first factor) or the factor in use, with recovery codes when new ones
 * were issued. `onDone` closes the flow (the overview refreshes itself).
 */
export function AddAuthenticatorApp({ onDone, onCancel }: { onDone: () => void; onCancel?: () => void }) {
  const begin = useBeginTotp();
  const confirm = useConfirmTotp();
  const [password, setPassword] = useState('');
  const [label, setLabel] = useState('Authenticator app');
  const [code, setCode] = useState('');
  const [missing, setMissing] = useState<Record<string, string>>({});
  const [enrolment, setEnrolment] = useState<TotpEnrolmentAnswer | null>(null);
  const [result, setResult] = useState<ConfirmTotpAnswer | null>(null);
  const codeField = useRef<HTMLInputElement>(null);
  const passwordField = useRef<HTMLInputElement>(null);

  // Each step's first field takes the focus, so a keyboard or screen-reader user goes on where it starts.
  useEffect(() => {
    if (enrolment && !result) codeField.current?.focus();
  }, [enrolment, result]);

  const start = (e: FormEvent) => {
    e.preventDefault();
    const none = {
      ...(password ? {} : { password: 'Password is required' }),
      ...(label.trim() ? {} : { label: 'Name is required' }),
    };
    setMissing(none);
    if (Object.keys(none).length) return passwordField.current?.focus();
    begin.mutate(
      { password, label: label.trim() },
      { onSuccess: (answer) => setEnrolment(answer), onError: () => passwordField.current?.focus() },
    );
  };
  const prove = (e: FormEvent) => {
    e.preventDefault();
    if (!code.trim()) {
      setMissing({ code: 'Code is required' });
      return codeField.current?.focus();
    }
    setMissing({});
    confirm.mutate(
      { factorId: enrolment!.factorId, code: code.trim() },
      { onSuccess: (answer) => setResult(answer), onError: () => codeField.current?.focus() },
    );
  };

  if (result) {
    return (
      <Stack gap="md">
        {result.state === 'AWAITING_EMAIL' ? (
          <Alert color="blue" title="Check your email" role="status">
            We sent you a link to confirm this authenticator app. It signs you in once you follow the link: this makes
            sure nobody who only knows your password can add an app of their own.
          </Alert>
        ) : (
          <Alert color="green" title="Authenticator app added" role="status">
            From your next sign-in you can use its codes.
          </Alert>
        )}
        {result.recoveryCodes?.length ? <RecoveryCodesList codes={result.recoveryCodes} /> : null}
        <Group>
          <Button onClick={onDone}>Done</Button>
        </Group>
      </Stack>
    );
  }

  if (enrolment) {
    return (
      <form onSubmit={prove} noValidate aria-label="Confirm the authenticator app">
        <Stack gap="md">
          <Text size="sm">
            Scan this QR code with your authenticator app, or type the key below into it. Then enter the 6-digit code
            the app shows.
          </Text>
          <Image
            src={`data:image/svg+xml;utf8,${encodeURIComponent(enrolment.qrSvg)}`}
            alt="QR code of the key for your authenticator app"
            w={200}
            h={200}
          />
          <div>
            <Text size="sm" fw={500} id="totp-key-label">
              Key (shown only now)
            </Text>
            <Code block aria-labelledby="totp-key-label" style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-all' }}>
              {enrolment.secret}
            </Code>
          </div>
          <TextInput
            ref={codeField}
            label="Code from the app"
            inputMode="numeric"
            autoComplete="one-time-code"
            value={code}
            onChange={(e) => setCode(e.currentTarget.value)}
            error={missing.code ?? fieldError(confirm.error, 'code')}
            required
          />
          <StepFooter
            error={confirm.error}
            fields={['code']}
            pending={confirm.isPending}
            submit="Confirm"
            onCancel={onCancel}
          />
        </Stack>
      </form>
    );
  }

  return (
    <form onSubmit={start} noValidate aria-label="Add an authenticator app">
      <Stack gap="md">
        <Text size="sm">Enter your password again to add an authenticator app, and give the device a name.</Text>
        <PasswordInput
          ref={passwordField}
          label="Password"
          autoComplete="current-password"
          value={password}
          onChange={(e) => setPassword(e.currentTarget.value)}
          error={missing.password ?? fieldError(begin.error, 'password')}
          required
        />
        <TextInput
          label="Name of the device"
          value={label}
          maxLength={64}
          onChange={(e) => setLabel(e.currentTarget.value)}
          error={missing.label ?? fieldError(begin.error, 'label')}
          required
        />
        <StepFooter
          error={begin.error}
          fields={['password', 'label']}
          pending={begin.isPending}
          submit="Continue"
          onCancel={onCancel}
        />
      </Stack>
    </form>
  );
}
