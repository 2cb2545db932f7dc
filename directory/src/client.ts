/** ldapts clients: one bound as the directory administrator, or one for binding as a person. */
import { SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import { Client } from 'ldapts';
import type { DirectoryConfig } from './config';

/** The operations traced (issue 24 "Traces"): each a client span, a child of the request or activity's. */
const TRACED = ['bind', 'search', 'add', 'modify', 'del', 'modifyDN', 'compare', 'exop'] as const;

/**
 * Makes each LDAP operation of `client` a span `LDAP <operation>` (no DN or filter recorded: they hold
 * usernames). With tracing off the spans are no-ops.
 */
function traced(client: Client, url: string): Client {
  const tracer = trace.getTracer('portal-directory');
  const target = client as unknown as Record<string, (...args: unknown[]) => Promise<unknown>>;
  for (const op of TRACED) {
    const original = target[op]!.bind(client);
    target[op] = (...args: unknown[]) =>
      tracer.startActiveSpan(
        `LDAP ${op}`,
        { kind: SpanKind.CLIENT, attributes: { 'ldap.operation': op, 'server.address': url } },
        async (span) => {
          try {
            return await original(...args);
          } catch (err) {
            span.setStatus({ code: SpanStatusCode.ERROR, message: (err as Error).name });
            throw err;
          } finally {
            span.end();
          }
        },
      );
  }
  return client;
}

/** A fresh, unbound client with the portal's timeouts (an operation: `LDAP_TIMEOUT_MS`, 10 s by default). */
export function newClient(cfg: DirectoryConfig): Client {
  return traced(
    new Client({ url: cfg.LDAP_URL, timeout: cfg.LDAP_TIMEOUT_MS ?? 10_000, connectTimeout: 5_000 }),
    cfg.LDAP_URL,
  );
}

/** Runs `fn` with a client bound as the directory administrator; always unbinds. */
export async function withAdmin<T>(cfg: DirectoryConfig, fn: (client: Client) => Promise<T>): Promise<T> {
  const client = newClient(cfg);
  try {
    await client.bind(cfg.LDAP_ADMIN_DN, cfg.LDAP_ADMIN_PASSWORD);
    return await fn(client);
  } finally {
    await client.unbind().catch(() => undefined);
  }
}
