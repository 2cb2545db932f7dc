import {
  PasskeyOptionsAnswerSchema,
  SIGNATURE_ERRORS,
  SIGNATURE_HEADER,
  SIGNATURE_PASSKEY_OPTIONS_PATH,
  SIGNATURE_TICKET_PATH,
  SignatureTicketSchema,
  type SignatureAction,
  type SignedDecision,
} from '@portal/contract';
import { ApiError, request, setSignatureInterceptor } from './apiClient';
import { type PasskeyOptions, signWithPasskey } from './webauthn';

/**
 * Signing a decision (docs/decisions.md "Electronic signatures"; 21 CFR Part 11 §11.200(a)(1)): the credential
 * is re-entered, POST SIGNATURE_TICKET_PATH answers a one-use ticket bound to the decision's digest, and the
 * action's own call carries it in SIGNATURE_HEADER. The ticket is asked for at the moment the action's call is
 * sent, from that call's method, path and body, so what is signed is exactly what is sent. With a passkey, the
 * credential is an assertion of SIGNATURE_PASSKEY_OPTIONS_PATH's challenge, which ends with the digest of that
 * same decision and meaning (§11.70: the assertion signs nothing else).
 */

/** What the signer entered: the action signed, the meaning chosen and the credential. */
export type SignatureCredentials =
  | {
      action: SignatureAction;
      meaning: string;
      /** Only at the session's first signature (or when the API asks for it). */
      username?: string;
      password: string;
    }
  | {
      action: SignatureAction;
      meaning: string;
      /** Sign with one of the person's passkeys (the browser's prompt) instead of the password. */
      passkey: true;
    };

/** The ticket call refused the credential (422 fieldErrors `password`, `username`, `meaning`, or globalErrors). */
export class SignatureRefused extends Error {
  override readonly cause: ApiError;
  constructor(cause: ApiError) {
    super(cause.message);
    this.name = 'SignatureRefused';
    this.cause = cause;
  }
}

const SIGNED_KEY = 'portal.signature.signedInSession';

/** Whether this session has signed before (the username is then not asked again, §11.200(a)(1)(i)). */
export function hasSignedThisSession(): boolean {
  return sessionStorage.getItem(SIGNED_KEY) === '1';
}

/** A session ended: its next signature, the first of a new session, asks for the username again. */
export function forgetSessionSignature(): void {
  sessionStorage.removeItem(SIGNED_KEY);
}

/**
 * The passkey's assertion for `decision`: the API's challenge for it, signed in the browser's prompt.
 * @throws ApiError (422 `assertion`: no passkey), PasskeyError (the prompt was cancelled or is unsupported).
 */
async function passkeyAssertion(action: SignatureAction, meaning: string, decision: SignedDecision) {
  const { data } = await request<unknown>('POST', SIGNATURE_PASSKEY_OPTIONS_PATH, {
    body: { action, meaning, decision },
  });
  const parsed = PasskeyOptionsAnswerSchema.safeParse(data);
  if (!parsed.success) throw new ApiError(502, { message: 'The portal gave passkey options it does not understand.' });
  return signWithPasskey(parsed.data.options as PasskeyOptions);
}

/**
 * POSTs the ticket call for `decision` (after the browser's passkey prompt when signing with a passkey).
 * @throws SignatureRefused on a refusal (422), PasskeyError when the prompt did not sign, ApiError otherwise.
 */
export async function getSignatureTicket(credentials: SignatureCredentials, decision: SignedDecision): Promise<string> {
  const { action, meaning } = credentials;
  try {
    const body =
      'passkey' in credentials
        ? { action, meaning, assertion: await passkeyAssertion(action, meaning, decision), decision }
        : {
            action,
            meaning,
            ...(credentials.username ? { username: credentials.username } : {}),
            password: credentials.password,
            decision,
          };
    const { data } = await request<unknown>('POST', SIGNATURE_TICKET_PATH, { body });
    const parsed = SignatureTicketSchema.safeParse(data);
    if (!parsed.success)
      throw new ApiError(502, { message: 'The portal gave a signature ticket it does not understand.' });
    sessionStorage.setItem(SIGNED_KEY, '1');
    return parsed.data.ticket;
  } catch (error) {
    if (error instanceof ApiError && error.status === 422) throw new SignatureRefused(error);
    throw error;
  }
}

/**
 * Runs `send` (which makes the action's one call, e.g. a mutation's `mutateAsync`) signed with `credentials`:
 * its first non-GET call gets a ticket for its own method, path and body and is sent with SIGNATURE_HEADER.
 * Resolves or rejects as `send` does; a refused credential rejects with SignatureRefused and the action's call
 * is not sent.
 */
export async function sendSigned<T>(credentials: SignatureCredentials, send: () => Promise<T>): Promise<T> {
  let used = false;
  setSignatureInterceptor(async (method, path, body) => {
    if (used) return undefined;
    used = true;
    const ticket = await getSignatureTicket(credentials, {
      method: method as SignedDecision['method'],
      path,
      body,
    });
    return { [SIGNATURE_HEADER]: ticket };
  });
  try {
    return await send();
  } finally {
    setSignatureInterceptor(null);
  }
}

/** The call was refused for want of a signature (signatures are on, no ticket was sent). */
export function isSignatureRequired(error: unknown): boolean {
  return error instanceof ApiError && error.status === 422 && error.hasGlobalError(SIGNATURE_ERRORS.required);
}

/** The ticket sent was not accepted (used, expired, another decision's). */
export function isSignatureInvalid(error: unknown): boolean {
  return error instanceof ApiError && error.status === 422 && error.hasGlobalError(SIGNATURE_ERRORS.invalid);
}

/** An error the signing dialog shows itself (the screen's own message stays as it is). */
export function isSigningError(error: unknown): boolean {
  return error instanceof SignatureRefused || isSignatureInvalid(error);
}
