import { Alert, Button, Fieldset, Group, PasswordInput, Select, Stack, Text, TextInput } from '@mantine/core';
import { SIGNATURE_TEXTS, translateFieldErrors, type SignatureAction } from '@portal/contract';
import { useId, useState, type FormEvent, type ReactNode } from 'react';
import {
  hasSignedThisSession,
  isSignatureInvalid,
  SignatureRefused,
  type SignatureCredentials,
} from '../../lib/signature';
import { PasskeyError, passkeysSupported } from '../../lib/webauthn';

export interface SigningFormProps {
  action: SignatureAction;
  /** The meanings offered for the action (the first is preselected when there is only one). */
  meanings: string[];
  /** What is being decided (the confirmation's question), shown above the signing fields. */
  children?: ReactNode;
  /** The buttons' labels (the confirmation's own). */
  labels?: { confirm: string; cancel: string };
  /**
   * Signs and sends the decision. A refused credential (SignatureRefused) or an invalid ticket keeps the form
   * open with its text; resolving, or any other failure (the screen shows it), closes it.
   */
  onSign: (credentials: SignatureCredentials) => unknown;
  onClose: () => void;
  /** The API refused the decision unsigned: say why the signature is asked for. */
  required?: boolean;
}

type Errors = Partial<Record<'meaning' | 'username' | 'password', string>>;

/**
 * The signing fields of a signed decision (21 CFR Part 11 §11.50, §11.200(a)(1)): the meaning (a select of the
 * action's configured meanings), the username at the session's first signature (or when the API asks for
 * it), the password, and the statement of what entering it means. Enter submits; the first field takes the
 * focus when the dialog opens; each error is announced under its field. Where the browser has WebAuthn,
 * 'Sign with a passkey' signs instead with one of the person's passkeys (no username or password: the
 * passkey names its person and verifies them; docs/decisions.md "Electronic signatures").
 */
export function SigningForm({ action, meanings, children, labels, onSign, onClose, required }: SigningFormProps) {
  const [meaning, setMeaning] = useState<string | null>(meanings.length === 1 ? meanings[0]! : null);
  const [askUsername, setAskUsername] = useState(!hasSignedThisSession());
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [errors, setErrors] = useState<Errors>({});
  const [general, setGeneral] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const statementId = useId();

  /** Signs with `credentials`; a refusal keeps the form open with its text, anything else closes it. */
  const sign = async (credentials: SignatureCredentials) => {
    setBusy(true);
    try {
      await onSign(credentials);
      onClose();
    } catch (error) {
      if (error instanceof SignatureRefused) {
        const fe = error.cause.fieldErrors;
        const next: Errors = {};
        if (fe.password) next.password = fe.password.join(' ');
        if (fe.meaning) next.meaning = fe.meaning.join(' ');
        if (fe.username) {
          next.username = fe.username.join(' ');
          setAskUsername(true);
        }
        setErrors(next);
        if (Object.keys(next).length === 0) {
          setGeneral(fe.assertion?.join(' ') || error.cause.globalErrors.join(' ') || error.message);
        }
        setPassword('');
      } else if (error instanceof PasskeyError) {
        setGeneral(error.message);
      } else if (isSignatureInvalid(error)) {
        setGeneral(SIGNATURE_TEXTS.invalid);
        setPassword('');
      } else {
        onClose();
      }
    } finally {
      setBusy(false);
    }
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    // The dialog is portaled, but React bubbles its submit to a form around the screen (the user detail's).
    event.stopPropagation();
    const missing: Errors = {};
    if (!meaning) missing.meaning = SIGNATURE_TEXTS.meaningInvalid;
    if (askUsername && !username.trim()) missing.username = SIGNATURE_TEXTS.usernameRequired;
    if (!password) missing.password = translateFieldErrors('Password', ['required']);
    setErrors(missing);
    setGeneral(null);
    if (Object.keys(missing).length > 0) return;
    void sign({ action, meaning: meaning!, password, ...(askUsername ? { username: username.trim() } : {}) });
  };

  const signWithPasskey = () => {
    setErrors(meaning ? {} : { meaning: SIGNATURE_TEXTS.meaningInvalid });
    setGeneral(null);
    if (meaning) void sign({ action, meaning, passkey: true });
  };

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="sm">
        {children}
        {required && <Text size="sm">{SIGNATURE_TEXTS.required}</Text>}
        <Fieldset legend={SIGNATURE_TEXTS.legend} aria-describedby={statementId}>
          <Stack gap="xs">
            <Select
              label="Meaning"
              data={meanings}
              value={meaning}
              onChange={setMeaning}
              error={errors.meaning}
              required
              allowDeselect={false}
              data-autofocus
              comboboxProps={{ withinPortal: true }}
            />
            {askUsername && (
              <TextInput
                label="Username"
                autoComplete="username"
                value={username}
                onChange={(e) => setUsername(e.currentTarget.value)}
                error={errors.username}
                required
              />
            )}
            <PasswordInput
              label="Password"
              autoComplete="current-password"
              value={password}
              onChange={(e) => setPassword(e.currentTarget.value)}
              error={errors.password}
              required
            />
            <Text size="sm" id={statementId}>
              {SIGNATURE_TEXTS.statement}
            </Text>
          </Stack>
        </Fieldset>
        {general && (
          <Alert color="red" role="alert">
            {general}
          </Alert>
        )}
        <Group justify="flex-end" wrap="wrap">
          {passkeysSupported() && (
            <Button variant="light" type="button" onClick={signWithPasskey} disabled={busy} mr="auto">
              {SIGNATURE_TEXTS.signWithPasskey}
            </Button>
          )}
          <Button variant="default" type="button" onClick={onClose} disabled={busy}>
            {labels?.cancel ?? 'Cancel'}
          </Button>
          <Button type="submit" loading={busy}>
            {labels?.confirm ?? 'Sign'}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
