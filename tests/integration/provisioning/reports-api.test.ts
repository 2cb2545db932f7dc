/**
 * A system's reconciliation reports (issue 41; api/src/features/provisioning/reports.ts, csv.ts) against real
 * PostgreSQL, with runs and differences written directly (as the reconciliation's activities would): the runs
 * newest first in pages, one report with its differences in the order found, a run of another system refused,
 * and every difference as CSV (byte-order mark, header, CRLF records, spreadsheet-safe cells).
 */
import { describe, expect, it } from 'vitest';
import { PROVISIONING_MESSAGES } from '@portal/contract';
import { unique, useConfigApi } from '../config-support';

const { api, call, readonly } = useConfigApi();

const path = (id: number, tail: string) => `/rest/secure/system_mgmt/system_access/${id}/provisioning${tail}`;

/** A system of this test's own. */
const newSystem = (tag: string) =>
  api.prisma.systemAccess.create({ data: { systemName: unique(`Provisioning ${tag}`), description: '' } });

describe('provisioning reports', () => {
  it('lists runs newest first, shows a report and streams every difference as spreadsheet-safe CSV', async () => {
    const system = await newSystem('Reports');
    const older = await api.prisma.provisioningReconciliation.create({
      data: { systemAccessId: system.id, status: 'DONE', finishedAt: new Date(), targetAccounts: 3, orphans: 1 },
    });
    const newer = await api.prisma.provisioningReconciliation.create({
      data: { systemAccessId: system.id, status: 'DONE', finishedAt: new Date(), missing: 1, drifted: 1 },
    });
    await api.prisma.provisioningDifference.createMany({
      data: [
        {
          reconciliationId: newer.id,
          kind: 'MISSING',
          externalId: 'ext-1',
          userName: 'jdoe',
          portalUserId: 7,
          detail: 'not at the target',
        },
        {
          reconciliationId: newer.id,
          kind: 'DRIFTED',
          externalId: 'ext-2',
          userName: '=HYPERLINK("http://evil")',
          targetId: 't-2',
          portalUserId: 8,
          detail: 'emails: wanted "a@example.org", held "b@example.org"',
        },
        { reconciliationId: older.id, kind: 'ORPHAN', targetId: 't-9', userName: 'ghost', detail: 'no portal user' },
      ],
    });

    const page = await call(readonly, 'GET', `${path(system.id, '/reconciliations')}?page=1&size=1`);
    expect(page.statusCode, page.body).toBe(200);
    expect(page.json()).toMatchObject({ totalElements: 2, totalPages: 2, number: 1, size: 1, last: false });
    expect(page.json().content.map((r: { id: number }) => r.id)).toEqual([newer.id]);
    expect((await call(readonly, 'GET', `${path(system.id, '/reconciliations')}?size=0`)).statusCode).toBe(422);

    const report = await call(readonly, 'GET', path(system.id, `/reconciliations/${newer.id}`));
    expect(report.statusCode, report.body).toBe(200);
    expect(report.json()).toMatchObject({ id: newer.id, status: 'DONE', missing: 1, drifted: 1 });
    expect(report.json().differences.map((d: { kind: string }) => d.kind)).toEqual(['MISSING', 'DRIFTED']);
    const other = await newSystem('Reports other');
    expect((await call(readonly, 'GET', path(other.id, `/reconciliations/${newer.id}`))).json()).toEqual({
      message: PROVISIONING_MESSAGES.loadReconciliation,
    });

    const csv = await call(readonly, 'GET', path(system.id, `/reconciliations/${newer.id}/differences.csv`));
    expect(csv.statusCode, csv.body).toBe(200);
    expect(csv.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(csv.headers['content-disposition']).toBe(
      `attachment; filename="reconciliation-${newer.id}-differences.csv"`,
    );
    expect(csv.body).toBe(
      '\ufeffkind,externalId,userName,targetId,portalUserId,detail\r\n' +
        'MISSING,ext-1,jdoe,,7,not at the target\r\n' +
        `DRIFTED,ext-2,"'=HYPERLINK(""http://evil"")",t-2,8,"emails: wanted ""a@example.org"", held ""b@example.org"""\r\n`,
    );
    expect(
      (await call(readonly, 'GET', path(system.id, `/reconciliations/999999999/differences.csv`))).statusCode,
    ).toBe(404);
  });
});
