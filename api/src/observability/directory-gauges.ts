/**
 * The directory's gauge (docs/decisions.md "Passwords stored with Argon2id"): person entries by the form of
 * their stored password, so an operator sees how many {SSHA} values still wait for their owners' next
 * sign-in. Counting reads every person entry, so a scrape never waits for it: a scrape whose last count is
 * older than PASSWORD_CENSUS_INTERVAL_MS starts one in the background (one at a time) and answers the last
 * values. A failed count adds to `portal_metrics_scrape_errors_total{source="directory"}`.
 */
import { type DirectoryConfig, PASSWORD_FORMS, countPasswordForms } from '@portal/directory';
import type { ApiMetrics } from './registry';

/** @returns the function a scrape calls: starts a count when the last one is older than `intervalMs`. */
export function passwordCensus(directory: DirectoryConfig, metrics: ApiMetrics, intervalMs: number): () => void {
  let counted = -Infinity;
  let running: Promise<void> | undefined;
  const count = async () => {
    try {
      const forms = await countPasswordForms(directory);
      for (const form of PASSWORD_FORMS) metrics.passwordHashes.set({ form }, forms[form]);
      counted = Date.now();
    } catch {
      metrics.scrapeErrors.inc({ source: 'directory' });
    }
  };
  return () => {
    if (running || Date.now() - counted < intervalMs) return;
    running = count().finally(() => (running = undefined));
  };
}
