/**
 * Sending a batch of mails to many people where one recipient's failure must hold no other back (the access
 * expiry's mails and notices, issue 25; REQUEST-LIFECYCLE rule 5): a mail the SMTP server refuses for good
 * (a 5xx reply, or an envelope it cannot take) is given up at once, and the caller audits it MAIL_FAILED and
 * settles it so no later run tries it again; a mail that fails for now (the server away, a 4xx reply) is left
 * for later while the others go on.
 */
import { ApplicationFailure } from '@temporalio/activity';

/** True when the SMTP server refused the mail for good: retrying sends nothing more. */
export function isPermanentMailFailure(err: unknown): boolean {
  if (err instanceof ApplicationFailure) return false;
  const e = err as { responseCode?: unknown; code?: unknown } | null;
  const code = typeof e?.responseCode === 'number' ? e.responseCode : 0;
  return (code >= 500 && code < 600) || e?.code === 'EENVELOPE';
}

const reasonOf = (err: unknown): string => (err instanceof Error ? err.message : String(err)).slice(0, 500);

export interface SendEachResult {
  sent: number;
  /** Refused for good, settled by `giveUp`. */
  givenUp: number;
  /** Failed for now: left for a later attempt. */
  deferred: number;
}

/**
 * Sends `send(row)` for each row in order. A permanent refusal calls `giveUp(row, reason)` (reason: the
 * server's reply, at most 500 characters); a transient failure leaves the row.
 * @throws the last transient failure when no row was sent or given up and some failed (SMTP away: the
 *   activity's retry waits for it).
 */
export async function sendEach<T>(
  rows: readonly T[],
  send: (row: T) => Promise<unknown>,
  giveUp: (row: T, reason: string) => Promise<void>,
): Promise<SendEachResult> {
  const result: SendEachResult = { sent: 0, givenUp: 0, deferred: 0 };
  let lastTransient: unknown;
  for (const row of rows) {
    try {
      await send(row);
      result.sent += 1;
    } catch (err) {
      if (isPermanentMailFailure(err)) {
        await giveUp(row, reasonOf(err));
        result.givenUp += 1;
      } else {
        result.deferred += 1;
        lastTransient = err;
      }
    }
  }
  if (result.deferred && !result.sent && !result.givenUp) throw lastTransient;
  return result;
}
