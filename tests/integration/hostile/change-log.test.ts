/**
 * The walkers' proof that a refused request wrote nothing (walker-support.ts `watchChanges`): the change log
 * must see every row inserted, changed or deleted and every TRUNCATE in a table outside the ones a refused
 * request may touch, and nothing else: no UPDATE that leaves a row as it was, no rolled-back write, no write
 * committed before the mark, no write to a table a refused request may touch (sessions, rate limits).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPrisma, type PrismaClient } from '@portal/db';
import { type ChangeWatch, cloneDatabase, watchChanges } from './walker-support';

let prisma: PrismaClient;
let dropClone: () => Promise<void>;
let changes: ChangeWatch;
let categoryId: number;

beforeAll(async () => {
  const clone = await cloneDatabase();
  dropClone = clone.drop;
  prisma = createPrisma(clone.url);
  changes = await watchChanges(prisma);
  categoryId = (await prisma.resourceCategory.create({ data: { name: 'Change log' } })).id;
});

afterAll(async () => {
  await prisma?.$disconnect();
  await dropClone?.();
});

/** The tables `write` changed, as the walkers read them around a request. */
async function changedBy(write: () => Promise<unknown>): Promise<string[]> {
  const mark = await changes.mark();
  await write();
  return changes.changedSince(mark);
}

describe('the walkers change log', () => {
  it('sees a row inserted, changed or deleted, by table', async () => {
    let id = 0;
    expect(
      await changedBy(async () => (id = (await prisma.resourceCategory.create({ data: { name: 'Inserted' } })).id)),
    ).toEqual(['ResourceCategory']);
    expect(await changedBy(() => prisma.resourceCategory.update({ where: { id }, data: { name: 'Changed' } }))).toEqual(
      ['ResourceCategory'],
    );
    expect(
      await changedBy(async () => {
        await prisma.resourceCategory.delete({ where: { id } });
        await prisma.systemAccess.create({ data: { systemName: `Change log ${id}` } });
      }),
    ).toEqual(['ResourceCategory', 'SystemAccess']);
  });

  it('sees a TRUNCATE', async () => {
    expect(await changedBy(() => prisma.$executeRawUnsafe('TRUNCATE "CaptchaUsedSolution"'))).toEqual([
      'CaptchaUsedSolution',
    ]);
  });

  it('ignores an UPDATE that leaves the row as it was, and reads, and the tables a refused request may touch', async () => {
    expect(
      await changedBy(async () => {
        await prisma.resourceCategory.update({ where: { id: categoryId }, data: { name: 'Change log' } });
        await prisma.$executeRaw`UPDATE "ResourceCategory" SET sort = sort WHERE id = ${categoryId}`;
        await prisma.resourceCategory.findMany();
        await prisma.rateLimit.create({ data: { key: `change-log-${categoryId}`, points: 1 } });
        await prisma.rateLimit.update({ where: { key: `change-log-${categoryId}` }, data: { points: 2 } });
      }),
    ).toEqual([]);
  });

  it('ignores a rolled-back write and one committed before the mark', async () => {
    await prisma.resourceCategory.update({ where: { id: categoryId }, data: { sort: 7 } });
    expect(
      await changedBy(() =>
        prisma
          .$transaction(async (tx) => {
            await tx.resourceCategory.update({ where: { id: categoryId }, data: { sort: 8 } });
            throw new Error('refused');
          })
          .catch((err: Error) => expect(err.message).toBe('refused')),
      ),
    ).toEqual([]);
  });

  it('sees a write whose transaction was still open at the mark and committed after it', async () => {
    let mark = '';
    await prisma.$transaction(async (tx) => {
      await tx.resourceCategory.update({ where: { id: categoryId }, data: { sort: 9 } });
      // Another connection of the pool: the transaction above has not committed yet.
      mark = await changes.mark();
    });
    expect(await changes.changedSince(mark)).toEqual(['ResourceCategory']);
  });
});
