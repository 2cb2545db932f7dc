/**
 * Deadlines on PostgreSQL for the routes (issue 21 "no request stuck by a long outage"): a database that accepts
 * connections but never answers (frozen) must not hang a call, and one that refuses them (stopped) must not
 * surface as a 500 with the generic text. Both answer 503 with the route's own message.
 */
import { HttpError, unavailable } from '../http/errors';

/** How long (ms) a route waits for PostgreSQL before it answers 503. */
export const DATABASE_DEADLINE_MS = 10_000;

/** `promise`, or a rejection (Error 'no answer within <ms> ms') once `ms` passed without its answer. */
export function withinDeadline<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

/**
 * Runs `work` within `ms` (DATABASE_DEADLINE_MS by default). @returns its answer. @throws its HttpError as it
 * is; anything else (the database failing, or late) as HttpError 503 `{ message }`, after `log`ging the cause.
 */
export async function orUnavailable<T>(
  message: string,
  work: () => Promise<T>,
  log: (err: unknown) => void,
  ms = DATABASE_DEADLINE_MS,
): Promise<T> {
  try {
    return await withinDeadline(work(), ms);
  } catch (err) {
    if (err instanceof HttpError) throw err;
    log(err);
    throw unavailable(message);
  }
}
