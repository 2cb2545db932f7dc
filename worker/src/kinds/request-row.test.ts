// The request row's commit skeleton over a recording table: the exact calls each kind's table receives.
import { describe, expect, it } from 'vitest';
import type { CommitSaveInput } from '@portal/workflows';
import { requestRow, type RequestTable } from './request-row';
import type { Tx } from './types';

interface Row {
  id: number;
  requestStatus: string;
  reviewerComments: string;
  sysaidTicket: string;
  versionno: number;
  subjectUserId: number;
}

/** A table that answers `stored` and records every call the store makes. */
function fakeTable(stored: Row | null) {
  const calls: Array<[string, unknown]> = [];
  const table: RequestTable<Row, { requestStatus: string }> = {
    findUnique: async (args) => {
      calls.push(['findUnique', args]);
      return stored;
    },
    update: async (args) => calls.push(['update', args]),
    updateMany: async (args) => calls.push(['updateMany', args]),
  };
  return { table, calls };
}

const tx = {} as Tx;
const store = (
  table: RequestTable<Row, { requestStatus: string }>,
  written = (input: CommitSaveInput) => ({ requestStatus: input.toStatus }),
) =>
  requestRow({
    table: () => table,
    status: (row) => row.requestStatus,
    subjectUserId: (row) => row.subjectUserId,
    written,
  });

const save: CommitSaveInput = {
  kind: 'ACCESS_CHANGE',
  requestId: 7,
  workflowId: 'access-change-7',
  version: 3,
  fromStatus: 'NEW',
  toStatus: 'IN_PROGRESS',
  reviewerComments: 'looked at it',
  sysaidTicket: 'T-1',
  actor: { userId: 9, username: 'reviewer', permissions: [] },
};

describe('requestRow', () => {
  it('loads the stored row as the commit checks it', async () => {
    const { table, calls } = fakeTable({
      id: 7,
      requestStatus: 'NEW',
      reviewerComments: 'c',
      sysaidTicket: 't',
      versionno: 2,
      subjectUserId: 5,
    });
    expect(await store(table).load(tx, 7)).toEqual({
      status: 'NEW',
      reviewerComments: 'c',
      sysaidTicket: 't',
      version: 2,
      subjectUserId: 5,
    });
    expect(calls).toEqual([['findUnique', { where: { id: 7 } }]]);
  });

  it('loads null for a missing row', async () => {
    expect(await store(fakeTable(null).table).load(tx, 7)).toBeNull();
  });

  it("writes the kind's columns and the save's comments, ticket, version, actor and time", async () => {
    const { table, calls } = fakeTable(null);
    const before = Date.now();
    await store(table).write(tx, save);
    expect(calls).toEqual([
      [
        'update',
        {
          where: { id: 7 },
          data: {
            requestStatus: 'IN_PROGRESS',
            reviewerComments: 'looked at it',
            sysaidTicket: 'T-1',
            versionno: 3,
            lastModifiedBy: 'reviewer',
            dchng: expect.any(Date),
          },
        },
      ],
    ]);
    const { dchng } = (calls[0]![1] as { data: { dchng: Date } }).data;
    expect(dchng.getTime()).toBeGreaterThanOrEqual(before);
  });

  it("writes nothing when the kind's columns cannot be read", async () => {
    const { table, calls } = fakeTable(null);
    const failing = store(table, () => {
      throw new Error('invalid payload');
    });
    await expect(failing.write(tx, save)).rejects.toThrow('invalid payload');
    expect(calls).toEqual([]);
  });

  it('marks only a row not yet marked as started', async () => {
    const { table, calls } = fakeTable(null);
    await store(table).markStarted(tx, 7);
    expect(calls).toEqual([
      ['updateMany', { where: { id: 7, workflowStartedAt: null }, data: { workflowStartedAt: expect.any(Date) } }],
    ]);
  });
});
