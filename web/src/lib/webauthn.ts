/**
 * The browser's side of passkeys and security keys (docs/decisions.md "Passkeys"): the API's WebAuthn options
 * handed to `navigator.credentials` through `@simplewebauthn/browser`, and the outcome in the person's words.
 * The library is loaded only when a passkey is used (a dynamic import): the sign-in page's first load stays
 * within its budget (150 KB of JavaScript, tests/bench/bundle.ts).
 */
import { PASSKEY_TEXTS, type PasskeyAssertion, type PasskeyRegistration } from '@portal/contract';

/** WebAuthn options as the API answers them (PublicKeyCredential{Creation,Request}OptionsJSON). */
export type PasskeyOptions = { challenge: string } & Record<string, unknown>;

/** Thrown for a ceremony the browser did not finish; `message` is the text for the person. */
export class PasskeyError extends Error {
  override name = 'PasskeyError';
}

/** Whether this browser has WebAuthn at all (no library load: the sign-in page asks before offering it). */
export const passkeysSupported = (): boolean =>
  typeof window !== 'undefined' && typeof window.PublicKeyCredential === 'function';

const loadLibrary = () => import('@simplewebauthn/browser');

/** The person's words for a failed browser ceremony (the library's WebAuthnError or a DOMException). */
function failureText(err: unknown): string {
  const code = (err as { code?: string }).code;
  const name = (err as { name?: string }).name;
  if (code === 'ERROR_AUTHENTICATOR_PREVIOUSLY_REGISTERED' || name === 'InvalidStateError') return PASSKEY_TEXTS.taken;
  return PASSKEY_TEXTS.cancelled;
}

async function ceremony<T>(run: () => Promise<T>): Promise<T> {
  if (!passkeysSupported()) throw new PasskeyError(PASSKEY_TEXTS.unsupported);
  try {
    return await run();
  } catch (err) {
    throw new PasskeyError(failureText(err));
  }
}

/**
 * Creates a passkey from the API's creation options (WebAuthn §5.1.3 `navigator.credentials.create`).
 * @returns the new credential's `toJSON()` shape, for POST /rest/secure/second_factor/webauthn.
 * @throws PasskeyError when the browser cannot, or the person cancels.
 */
export async function createPasskey(options: PasskeyOptions): Promise<PasskeyRegistration> {
  const { startRegistration } = await loadLibrary();
  // The API's options are WebAuthn's JSON forms as the server library makes them; the API validates the answer.
  return ceremony(async () => (await startRegistration({ optionsJSON: options as never })) as PasskeyRegistration);
}

/**
 * Signs the API's challenge with a passkey (WebAuthn §5.1.4 `navigator.credentials.get`): one of the
 * options' `allowCredentials`, or any of this portal's discoverable passkeys when the list is empty.
 * @returns the assertion's `toJSON()` shape, for the passkey sign-in or the second step.
 * @throws PasskeyError when the browser cannot, or the person cancels.
 */
export async function signWithPasskey(options: PasskeyOptions): Promise<PasskeyAssertion> {
  const { startAuthentication } = await loadLibrary();
  return ceremony(async () => (await startAuthentication({ optionsJSON: options as never })) as PasskeyAssertion);
}
