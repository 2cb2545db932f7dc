/** ldapts clients: one bound as the directory administrator, or one for binding as a person. */
import { Client } from 'ldapts';
import type { DirectoryConfig } from './config';

/** A fresh, unbound client with the portal's timeouts. */
export function newClient(cfg: DirectoryConfig): Client {
  return new Client({ url: cfg.LDAP_URL, timeout: 10_000, connectTimeout: 5_000 });
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
