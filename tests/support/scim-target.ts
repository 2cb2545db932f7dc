/**
 * A real SCIM 2.0 target for the provisioning tests (issue 41): scim2-server on a free loopback port with a
 * bearer token of its own, started through the stack's own service module. `users()` reads everything it holds
 * (through its own SCIM API, as an operator would), `freeze()`/`thaw()` stop and continue the process (it keeps
 * its users in memory: never restart it in a test).
 */
import crypto from 'node:crypto';
import { freePort, startScimServer, type ScimHandle } from '@portal/scripts';

export interface ScimTarget extends ScimHandle {
  token: string;
  /** Every user the target holds, in its order. */
  users(): Promise<Array<Record<string, unknown> & { id: string; externalId?: string; userName?: string }>>;
  /** A call to the target's SCIM API with the token (for tests that change it behind the portal's back). */
  call(method: string, path: string, body?: unknown): Promise<Response>;
}

/** Starts a target; `extension` false refuses the portal's study-access extension (400). */
export async function startScimTarget(opts: { extension?: boolean } = {}): Promise<ScimTarget> {
  const token = crypto.randomBytes(18).toString('base64url');
  const handle = await startScimServer({
    port: await freePort(),
    token,
    extension: opts.extension,
    log: () => undefined,
  });
  const call = (method: string, path: string, body?: unknown) =>
    fetch(`${handle.url}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${token}`,
        ...(body === undefined ? {} : { 'content-type': 'application/scim+json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(10_000),
    });
  return {
    ...handle,
    token,
    call,
    async users() {
      const all: Array<Record<string, unknown> & { id: string }> = [];
      for (let start = 1; ; start += 500) {
        const res = await call('GET', `/Users?startIndex=${start}&count=500`);
        if (!res.ok) throw new Error(`GET /Users answered ${res.status}`);
        const page = (await res.json()) as {
          totalResults: number;
          Resources?: Array<Record<string, unknown> & { id: string }>;
        };
        all.push(...(page.Resources ?? []));
        if (!page.Resources?.length || all.length >= page.totalResults) return all;
      }
    },
  };
}
