/**
 * A reviewer's decision while PostgreSQL is away (issue 25 "PostgreSQL ... down for a while"; the guide's "break
 * it on purpose"): through an API whose database sits behind a fault proxy, a decision made while the database
 * is stopped (its port closed) or frozen (connections open, nothing answered) answers 503 with the contract's
 * message (the session check, first on the same database, names it), never a hang, a stack trace or a 5xx other
 * than 503, and stores nothing; once the database is back the same decision is made and audited once.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AUTH_MESSAGES } from '@portal/contract';
import type { AccessReviewCampaign } from '@portal/db';
import { answered, withDatabaseBehindProxy } from '../../support/database-fault';
import { FAULTS, faultName } from '../../support/fault-proxy';
import { stackEnv } from '../fixtures';
import { type TestApi, caller, signIn, startApi } from '../harness';
import { grant, itemsByAccess, laoReviewer, openCampaign, person, unique } from './support';

const DECISIONS = '/rest/secure/access_review/decisions';

let api: TestApi;
const lao = unique('LF');
let staff: Awaited<ReturnType<typeof laoReviewer>>;
let campaign: AccessReviewCampaign;
let itemIds: number[];

beforeAll(async () => {
  api = await startApi();
  staff = await laoReviewer(api, 'arfault', [lao]);
  const records = [];
  for (const name of ['Faa', 'Fbb'])
    records.push(await grant(api.prisma, await person(api.prisma, name), 'Data Manager', { laoIds: [lao] }));
  campaign = await openCampaign(api.prisma, records);
  const byAccess = await itemsByAccess(api.prisma, campaign.id);
  itemIds = records.map((r) => byAccess.get(r.id)!.id);
});

afterAll(async () => {
  await api?.close();
});

describe('a decision while PostgreSQL is away', () => {
  for (const [n, fault] of FAULTS.entries()) {
    it(`answers 503 with the message and stores nothing while the database is ${faultName(fault)}; decides once it is back`, async () => {
      const itemId = itemIds[n]!;
      await withDatabaseBehindProxy(stackEnv().DATABASE_URL!, async ({ proxy, prisma, url }) => {
        const behind = await startApi({ DATABASE_URL: url }, () => prisma);
        try {
          const call = caller(behind.app);
          const session = await signIn(behind.app, staff.username, staff.password);
          const body = { campaignId: campaign.id, itemIds: [itemId], decision: 'REMOVE', comment: 'Left the study' };
          proxy.fail(fault);
          const down = await answered('the decision', call(session, 'POST', DECISIONS, body));
          expect(down.statusCode, down.body).toBe(503);
          expect(down.body).not.toMatch(/ECONN|timeout|at .*\.(ts|js):\d+/i);
          // The session is checked first, on the same database: its answer names the database.
          expect(down.json()).toEqual({ message: AUTH_MESSAGES.databaseUnavailable });
          proxy.heal();
          const item = await api.prisma.accessReviewItem.findUniqueOrThrow({ where: { id: itemId } });
          expect(item.decision).toBeNull();
          const back = await answered('the decision after', call(session, 'POST', DECISIONS, body));
          expect(back.statusCode, back.body).toBe(200);
          expect(back.json()).toMatchObject({ decided: 1, refused: 0 });
        } finally {
          proxy.heal();
          await behind.close();
        }
      });
      expect((await api.prisma.accessReviewItem.findUniqueOrThrow({ where: { id: itemId } })).decision).toBe('REMOVE');
      const audited = await api.prisma.auditEvent.count({
        where: {
          action: 'ACCESS_REVIEW_DECIDED',
          entityType: 'UserAccess',
          after: { path: ['itemId'], equals: itemId },
        },
      });
      expect(audited).toBe(1);
    });
  }
});
