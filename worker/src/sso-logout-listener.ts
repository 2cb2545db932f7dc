/**
 * Starts back-channel logout notices as soon as their revocation commits (issue 22: "started after the commit
 * like every job here"): the revocation (prisma/src/sso-revocation.ts) notifies `SSO_LOGOUT_CHANNEL` in its
 * transaction; the listener (notice-listener.ts) then starts every unstarted notice.
 */
import { SSO_LOGOUT_CHANNEL } from '@portal/db';
import { listenForNotices } from './notice-listener';
import { type LogoutNoticeStarter, startLogoutNotice, unstartedLogoutNotices } from './sso-logout-reconcile';

export interface LogoutListenerOptions extends LogoutNoticeStarter {
  /** The PostgreSQL URL (the worker's DATABASE_URL). */
  connectionString: string;
  /** Wait before reconnecting after the connection failed, in ms. */
  retryMs?: number;
  log?: (message: string) => void;
}

/** Listens until the returned stop function is called; never throws (failures are logged and retried). */
export function listenForLogoutNotices(opts: LogoutListenerOptions): () => Promise<void> {
  return listenForNotices({
    connectionString: opts.connectionString,
    channel: SSO_LOGOUT_CHANNEL,
    name: 'logout listener',
    retryMs: opts.retryMs,
    log: opts.log,
    pass: async (stopped) => {
      for (const row of await unstartedLogoutNotices(opts.prisma)) {
        if (stopped()) return;
        try {
          await startLogoutNotice(opts, row);
        } catch (err) {
          opts.log?.(`logout listener: notice ${row.id} not started: ${(err as Error).message}`);
        }
      }
    },
  });
}
