/**
 * The demo study system's settings ('Electronic Data Capture (demo)', issue 22), read from the environment the
 * stack supervisor gives it (start.ts): its port, the provider's issuer, its client id and secret. It lives on
 * `http://127.0.0.1:<port>` while the portal is on `http://localhost:<port>`: two sites, as a real study system
 * on its own domain would be, so the portal's same-site sign-in step is exercised.
 */
import { z } from 'zod';

/** The demo's client id at the provider (the seed registers it for 'Electronic Data Capture'). */
export const DEMO_CLIENT_ID = 'edc-demo';

/** What the demo calls itself. */
export const DEMO_SYSTEM_TITLE = 'Electronic Data Capture (demo)';

/** The scopes it asks for: who the person is, their study access, and a refresh token. */
export const DEMO_SCOPE = 'openid profile email study_access offline_access';

/** The demo's public base URL for `port` (on 127.0.0.1, never `localhost`, the portal's host). */
export const demoSystemUrl = (port: number): string => `http://127.0.0.1:${port}`;

const EnvSchema = z.object({
  DEMO_SYSTEM_PORT: z.coerce.number().int().min(1).max(65535),
  DEMO_SYSTEM_ISSUER: z.url(),
  DEMO_SYSTEM_CLIENT_ID: z.string().min(1).default(DEMO_CLIENT_ID),
  DEMO_SYSTEM_CLIENT_SECRET: z.string().min(32),
});

export interface DemoSystemConfig {
  port: number;
  /** http://127.0.0.1:<port> */
  baseUrl: string;
  /** The portal's issuer, e.g. http://localhost:8080/oidc. */
  issuer: string;
  clientId: string;
  clientSecret: string;
}

/**
 * Reads the demo system's variables.
 * @throws Error naming each missing or invalid variable (the secret's value is never echoed).
 */
export function loadDemoConfig(env: NodeJS.ProcessEnv = process.env): DemoSystemConfig {
  const parsed = EnvSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new Error(`Invalid demo system configuration:\n${lines.join('\n')}`);
  }
  const e = parsed.data;
  return {
    port: e.DEMO_SYSTEM_PORT,
    baseUrl: demoSystemUrl(e.DEMO_SYSTEM_PORT),
    issuer: e.DEMO_SYSTEM_ISSUER.replace(/\/+$/, ''),
    clientId: e.DEMO_SYSTEM_CLIENT_ID,
    clientSecret: e.DEMO_SYSTEM_CLIENT_SECRET,
  };
}

/**
 * The portal's multi-factor sign-in level (its discovery document's `acr_values_supported`, highest last), as a
 * study system configures it: the demo's 'Sign in with a second step' asks for it (issue 37).
 */
export const PORTAL_MFA_ACR = 'urn:portal:acr:mfa';

/**
 * The portal's phishing-resistant sign-in level (a passkey or security key was used): the demo's 'Sign in with
 * a passkey' asks for it (docs/decisions.md "Passkeys").
 */
export const PORTAL_PHR_ACR = 'urn:portal:acr:phr';
