/**
 * The stack's SCIM target (scripts/src/services/scim.ts, issue 41) takes any bearer token the secrets or a test
 * make, a base64url one starting with '-' among them (scim2-server's argument parser took it for an option).
 */
import { afterAll, describe, expect, it } from 'vitest';
import { freePort, startScimServer, type ScimHandle } from '@portal/scripts';

let server: ScimHandle | undefined;
afterAll(async () => server?.stop());

describe('startScimServer', () => {
  it("starts with a token that begins with '-', and accepts only that token", async () => {
    const token = '-Zx9_token-with-dashes';
    server = await startScimServer({ port: await freePort(), token, log: () => undefined });
    const users = (auth: string) => fetch(`${server!.url}/Users`, { headers: { authorization: `Bearer ${auth}` } });
    expect((await users(token)).status).toBe(200);
    expect((await users('another')).status).toBe(401);
  });
});
