/**
 * The browser's side of passkeys in component tests: the prompt itself is stubbed per file (each test file
 * mocks `@simplewebauthn/browser` with `vi.mock`, which Vitest hoists only within that file); this module
 * gives the assertion the stubbed prompt answers and a browser that has WebAuthn.
 */
import { vi } from 'vitest';

/** What the stubbed prompt answers: an assertion's `toJSON()` shape (WebAuthn AuthenticationResponseJSON). */
export const PASSKEY_ASSERTION = {
  id: 'cred-1',
  rawId: 'cred-1',
  type: 'public-key',
  response: { clientDataJSON: 'eyJ9', authenticatorData: 'AAAA', signature: 'BBBB' },
  clientExtensionResults: {},
};

/** Makes jsdom look like a browser with WebAuthn (`PublicKeyCredential` defined), and resets `prompt`. */
export function withWebAuthn(prompt: { mockReset(): unknown }): void {
  vi.stubGlobal('PublicKeyCredential', function PublicKeyCredential() {});
  prompt.mockReset();
}
