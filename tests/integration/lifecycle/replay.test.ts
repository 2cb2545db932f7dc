/**
 * Replays every recorded history of every request kind against today's workflow code (REQUEST-LIFECYCLE
 * rule 8): a change that alters the command sequence of a recorded path fails here until it goes behind
 * `patched()`. The expected set is listed: a missing history fails, it is never re-recorded silently.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { historyFromJSON } from '@temporalio/common/lib/proto-utils';
import { Worker } from '@temporalio/worker';
import { HISTORIES_DIR, workflowBundle } from './support';

/** The main paths each kind keeps a recorded history of. */
const EXPECTED: Record<string, string[]> = {
  // 'commit-read-back': a commit that committed but timed out, its key read back (issue 21 case 1);
  // 'commit-unsettled': a commit and its read-back both failed (database stopped), settled in the background;
  // 'approved-signed': an approval signed, the ticket's reference in the commit's input.
  'access-change': [
    'approved',
    'rejected',
    'comment-only',
    'refused-update',
    'mail-failed',
    'commit-read-back',
    'commit-unsettled',
    'approved-signed',
  ],
  // 'approved' holds a comment-only save and a refused one before the approval; 'approved-subject-user-id' is
  // the same since the approval sets SubjectUserId to the new user (issue 21 case 9).
  // 'denied-entry-removed': an approval's entry written, its activity failed, the denial removed the entry
  // (issue 21 case 2).
  registration: ['approved', 'approved-subject-user-id', 'denied', 'deleted', 'mail-failed', 'denied-entry-removed'],
  // 'completed' files NEW and CHANGE requests and skips a user (601); 'aborted' stops at the first user's 422;
  // 'continued-as-new' is the first run of a 105-user batch (100 users, then continue-as-new). The same three
  // recorded before filing became a local activity (task-queue-filing/) replay too, unlisted here.
  'proxy-batch': ['completed', 'aborted', 'continued-as-new'],
  // 'approved' holds a comment-only save and a refused one before the approval (directory write, then commit).
  // 'rejected-directory-restored': the directory written, the activity failed, the rejection restored it.
  'profile-change': ['approved', 'rejected', 'mail-failed', 'rejected-directory-restored'],
  // Access review campaigns (issue 25): the snapshot's last run after continue-as-new, reminders until the
  // deadline, the close's removals (KEEP and REMOVE defaults, a changed record), an early close, a cancel
  // (open and during the snapshot), a scheduled run starting its campaign as a child, removals that waited for
  // PostgreSQL, mails given up with SMTP down, and a person's signed close ('closed-signed').
  'access-review': [
    'snapshot-continued-as-new',
    'deadline-with-reminders',
    'deadline-removed',
    'deadline-default-remove-changed',
    'closed-early',
    'cancelled',
    'cancelled-during-snapshot',
    'scheduled-run',
    'removals-waited-for-database',
    'mail-failed',
    'closed-signed',
  ],
  // The audit seals: a run of several steps, and one whose steps failed while PostgreSQL was frozen.
  'audit-seal': ['steps', 'caught-up-after-frozen'],
  // Provisioning (issue 41): a convergence retried while the target was frozen and signalled meanwhile, one the
  // target refused (400, recorded), a reconciliation in chunks, and one that stopped FAILED.
  provisioning: ['retried-then-converged', 'refused', 'reconciled', 'reconcile-failed'],
  // Approval policies: access-change requests with stages (LAO staff, study approvers, then User Support's save),
  // one rejected at its first stage, one whose deadline passed (reminder, escalation), an override.
  approval: ['three-stages-approved', 'rejected-at-stage-1', 'escalated', 'override'],
};

describe('recorded histories', () => {
  it.each(Object.entries(EXPECTED))('%s: every main path is recorded', (kind, names) => {
    for (const name of names) {
      const file = path.join(HISTORIES_DIR, kind, `${name}.json`);
      expect(fs.existsSync(file), `${file} is missing: record it with RECORD_HISTORIES=1 (see README)`).toBe(true);
    }
  });

  it('replays every recorded history deterministically', async () => {
    const files = fs
      .readdirSync(HISTORIES_DIR, { recursive: true, encoding: 'utf8' })
      .filter((f) => f.endsWith('.json'))
      .map((f) => path.join(HISTORIES_DIR, f));
    expect(files.length).toBeGreaterThanOrEqual(Object.values(EXPECTED).flat().length);
    const histories = files.map((file) => ({
      workflowId: path.relative(HISTORIES_DIR, file),
      history: historyFromJSON(JSON.parse(fs.readFileSync(file, 'utf8'))),
    }));
    const results = [];
    for await (const result of Worker.runReplayHistories({ workflowBundle: workflowBundle() }, histories)) {
      results.push(result);
    }
    expect(results.filter((r) => r.error).map((r) => `${r.workflowId}: ${String(r.error)}`)).toEqual([]);
    expect(results).toHaveLength(histories.length);
  });
});
