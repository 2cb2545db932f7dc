/**
 * Recurring access reviews (issue 25 "Once, or recurring on a Temporal Schedule (e.g. every 90 days)"): an
 * AccessReviewSchedule row and its Temporal Schedule `access-review-schedule-<id>`, visible in the Temporal UI,
 * which every `everyDays` days runs `accessReviewScheduledWorkflow({ scheduleId })` (it files one campaign from
 * the row and starts it); the first run is triggered at once, right after the row's commit.
 *
 * The Temporal Schedule is created (or deleted, on deactivation) inside the row's transaction, so the two never
 * disagree: Temporal failing or not answering within TEMPORAL_DEADLINE_MS rolls the row back (503). Runs may
 * overlap (ALLOW_ALL): each files its own campaign. Campaigns already filed go on after a deactivation.
 */
import { type Client, ScheduleAlreadyRunning, ScheduleNotFoundError, ScheduleOverlapPolicy } from '@temporalio/client';
import {
  ACCESS_REVIEW_MESSAGES,
  type AccessReviewSchedule,
  type CreateAccessReviewScheduleBody,
  type Page,
} from '@portal/contract';
import type { Prisma } from '@portal/db';
import {
  ACCESS_REVIEW_SCHEDULED_WORKFLOW_TYPE,
  type AccessReviewScheduledInput,
  accessReviewScheduleId,
} from '@portal/workflows';
import type { AuthContext } from '../../auth/guard';
import type { Deps } from '../../deps';
import { HttpError, notFound, unavailable } from '../../http/errors';
import { pageWindow, toPage } from '../../http/page';
import { recordAudit } from '../../shared/audit-log';
import { temporalUiOf } from '../../shared/views';
import { CAMPAIGN_UNREACHABLE } from './control';
import { checkScope, definitionOf } from './scope';
import { scheduleView } from './views';

/** How long (ms) a schedule's create or delete may take in Temporal before the row is rolled back. */
const TEMPORAL_DEADLINE_MS = 10_000;

type ScheduleRow = Prisma.AccessReviewScheduleGetPayload<object>;

const describe = (err: unknown): string => (err instanceof Error ? err.message : String(err));

/** Campaigns filed per schedule of `ids`. */
async function campaignCounts(deps: Deps, ids: number[]): Promise<Map<number, number>> {
  if (!ids.length) return new Map();
  const rows = await deps.prisma.accessReviewCampaign.groupBy({
    by: ['scheduleId'],
    where: { scheduleId: { in: ids } },
    _count: { _all: true },
  });
  return new Map(rows.map((r) => [r.scheduleId!, r._count._all]));
}

async function viewOf(deps: Deps, row: ScheduleRow): Promise<AccessReviewSchedule> {
  return scheduleView(row, (await campaignCounts(deps, [row.id])).get(row.id) ?? 0, temporalUiOf(deps.cfg));
}

/** Runs `fn` against Temporal within TEMPORAL_DEADLINE_MS. */
const withinDeadline = <T>(client: Client, fn: () => Promise<T>): Promise<T> =>
  client.withDeadline(Date.now() + TEMPORAL_DEADLINE_MS, fn);

/**
 * Creates the Temporal Schedule of recurring review `row` (inside the row's transaction; its first run is
 * triggered once the row is committed, so that run finds it). A schedule of that id left in the namespace by
 * another database (a test stack sharing one Temporal) is converged on this row: a new row's id is never one
 * this database used before (its sequence does not go back).
 */
async function createTemporalSchedule(deps: Deps, row: ScheduleRow, username: string): Promise<void> {
  const scheduleId = accessReviewScheduleId(row.id);
  const spec = { intervals: [{ every: `${row.everyDays} days` }] };
  const action = {
    type: 'startWorkflow' as const,
    workflowType: ACCESS_REVIEW_SCHEDULED_WORKFLOW_TYPE,
    workflowId: `${scheduleId}-run`,
    taskQueue: deps.cfg.TEMPORAL_TASK_QUEUE,
    args: [{ scheduleId: row.id } satisfies AccessReviewScheduledInput],
    staticSummary: `Recurring access review #${row.id}: ${row.name}, every ${row.everyDays} day(s), by ${username}`,
  };
  const policies = { overlap: ScheduleOverlapPolicy.ALLOW_ALL, catchupWindow: '1 day' };
  try {
    await deps.temporal.schedule.create({
      scheduleId,
      spec,
      action,
      policies,
      state: { note: `Created by ${username}` },
    });
  } catch (err) {
    if (!(err instanceof ScheduleAlreadyRunning)) throw err;
    const handle = deps.temporal.schedule.getHandle(scheduleId);
    await handle.update((previous) => ({
      ...previous,
      spec,
      action,
      policies,
      state: { ...previous.state, paused: false },
    }));
  }
}

/** Deletes Temporal Schedule `scheduleId` within the deadline; one already gone is fine. */
async function deleteTemporalSchedule(deps: Deps, scheduleId: string): Promise<void> {
  await withinDeadline(deps.temporal, async () => {
    try {
      await deps.temporal.schedule.getHandle(scheduleId).delete();
    } catch (err) {
      if (!(err instanceof ScheduleNotFoundError)) throw err;
    }
  });
}

/** A page of the recurring reviews, newest first. */
export async function listSchedules(
  deps: Deps,
  q: { page: number; size: number },
): Promise<Page<AccessReviewSchedule>> {
  const [rows, total] = await Promise.all([
    deps.prisma.accessReviewSchedule.findMany({ orderBy: [{ sysdat: 'desc' }, { id: 'desc' }], ...pageWindow(q) }),
    deps.prisma.accessReviewSchedule.count(),
  ]);
  const counts = await campaignCounts(
    deps,
    rows.map((r) => r.id),
  );
  const ui = temporalUiOf(deps.cfg);
  return toPage(
    rows.map((r) => scheduleView(r, counts.get(r.id) ?? 0, ui)),
    total,
    q,
    'sysdat,desc',
  );
}

/**
 * Stores a recurring review and creates its Temporal Schedule (module note). @returns its view.
 * @throws HttpError 422 (unknown scope names), 503 (PostgreSQL or Temporal failed: nothing stored).
 */
export async function createSchedule(
  deps: Deps,
  actor: AuthContext,
  body: CreateAccessReviewScheduleBody,
): Promise<AccessReviewSchedule> {
  await checkScope(deps.prisma, body.scope);
  let row: ScheduleRow;
  let created: ScheduleRow | undefined;
  try {
    row = await deps.prisma.$transaction(
      async (tx) => {
        const inserted = await tx.accessReviewSchedule.create({
          data: { ...definitionOf(body), everyDays: body.everyDays, createdByUserId: actor.userId },
        });
        const scheduleId = accessReviewScheduleId(inserted.id);
        await recordAudit(tx, actor, {
          entityType: 'AccessReview',
          entityId: scheduleId,
          action: 'SCHEDULE_CREATED',
          after: { ...body, scheduleId },
        });
        await withinDeadline(deps.temporal, () => createTemporalSchedule(deps, inserted, actor.username));
        created = inserted;
        return inserted;
      },
      { timeout: TEMPORAL_DEADLINE_MS + 10_000 },
    );
  } catch (err) {
    // The commit failed after Temporal took the schedule: its runs would find no row, so it goes too.
    if (created) await deleteTemporalSchedule(deps, accessReviewScheduleId(created.id)).catch(() => undefined);
    if (err instanceof HttpError) throw err;
    console.error(`access review: saving the recurring review failed: ${describe(err)}`);
    throw unavailable(ACCESS_REVIEW_MESSAGES.saveScheduleFailed);
  }
  // The first campaign now (the row is committed, so the run finds it); a failure leaves it to the next interval.
  await withinDeadline(deps.temporal, () =>
    deps.temporal.schedule.getHandle(accessReviewScheduleId(row.id)).trigger(ScheduleOverlapPolicy.ALLOW_ALL),
  ).catch((err: unknown) =>
    console.error(`access review: the first run of recurring review ${row.id} was not triggered: ${describe(err)}`),
  );
  return viewOf(deps, row);
}

/**
 * Deactivates recurring review `id`: its Temporal Schedule deleted (already gone: fine), the row inactive. No
 * campaign it filed is touched. Idempotent. @returns its view.
 * @throws HttpError 404 (no such schedule), 503 (Temporal failed: the row stays active).
 */
export async function deactivateSchedule(deps: Deps, actor: AuthContext, id: number): Promise<AccessReviewSchedule> {
  const found = await deps.prisma.accessReviewSchedule.findUnique({ where: { id } });
  if (!found) throw notFound('Problem loading recurring access review.');
  if (found.inactive) return viewOf(deps, found);
  let row: ScheduleRow;
  try {
    row = await deps.prisma.$transaction(
      async (tx) => {
        const updated = await tx.accessReviewSchedule.update({ where: { id }, data: { inactive: true } });
        const scheduleId = accessReviewScheduleId(id);
        await recordAudit(tx, actor, {
          entityType: 'AccessReview',
          entityId: scheduleId,
          action: 'SCHEDULE_DEACTIVATED',
          after: { scheduleId },
        });
        await deleteTemporalSchedule(deps, scheduleId);
        return updated;
      },
      { timeout: TEMPORAL_DEADLINE_MS + 10_000 },
    );
  } catch (err) {
    console.error(`access review: deactivating recurring review ${id} failed: ${describe(err)}`);
    throw unavailable(CAMPAIGN_UNREACHABLE);
  }
  return viewOf(deps, row);
}
