/**
 * Reports (001 §2.11, §7, §8; issue 12): staff with READ_USERS open Reports from the navigation, see the
 * requests by status, meet the 422 of a start after the end under the date fields, and download the
 * access-modification report: the file carries the server's name, opens as CSV, and its rows are the requests
 * asked for (self-filed only, then all with the proxy-filed row). A network user is told the spec's 403
 * sentence. With axe on every screen.
 */
import fs from 'node:fs/promises';
import { expect, type Page, test } from '@playwright/test';
import { ACCESS_REPORT_COLUMNS, ACCESS_REQUEST_MESSAGES } from '@portal/contract';
import { csvRecords } from '../support/csv';
import { journeyPrisma, makeJourneyUser, type JourneyUser } from '../support/journey-users';
import { shot, signIn, signOut } from './support';

let subject: JourneyUser;
let proxyRowId: number;
let selfRowId: number;

test.beforeAll(async () => {
  const prisma = journeyPrisma();
  subject = await makeJourneyUser(prisma, 'reportee');
  const proxy = await prisma.portalUser.findUniqueOrThrow({ where: { username: 'laostaff' } });
  const study = await prisma.study.findFirstOrThrow({ orderBy: { study: 'asc' } });
  const fixed = await prisma.systemAccess.findFirstOrThrow({ where: { fixed: true } });
  // Two requests of the subject as the filing stores them (resolved, so no workflow is needed for them).
  const row = (isProxyRequest: boolean, requesterUserId: number, requesterComments: string) =>
    prisma.accessModRequest.create({
      data: {
        workflowId: `access-change-report-journey-${requesterComments.replace(/\W/g, '-')}`,
        requestType: 'NEW',
        requestStatus: 'APPROVED',
        subjectUserId: subject.id,
        requesterUserId,
        isProxyRequest,
        accessControls: [
          {
            questionNum: 1,
            roleName: 'Data Manager',
            siteCodes: [],
            laoIds: [],
            studyNames: [study.study],
            systemAccessIds: [fixed.id],
          },
        ],
        requesterComments,
        sysaidTicket: 'SR-REPORT',
        lastModifiedBy: 'reviewer',
        workflowStartedAt: new Date(),
      },
    });
  selfRowId = (await row(false, subject.id, `self ${subject.username}`)).id;
  proxyRowId = (await row(true, proxy.id, `proxy ${subject.username}`)).id;
  await prisma.$disconnect();
});

/** Clicks 'Download Report' and returns the downloaded file's name and records. */
async function download(page: Page) {
  const [file] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Download Report' }).click(),
  ]);
  const text = await fs.readFile(await file.path(), 'utf8');
  return { name: file.suggestedFilename(), ...csvRecords(text) };
}

test('staff download the access-modification report; others are refused', async ({ page }) => {
  await test.step('READ_USERS opens Reports and sees the requests by status', async () => {
    await signIn(page, 'readonly');
    await page.getByRole('navigation').getByRole('link', { name: 'Reports' }).click();
    await expect(page.getByRole('heading', { name: 'Reports', level: 1 })).toBeVisible();
    const counts = page.getByRole('table', { name: 'Requests by Status' });
    await expect(counts.getByRole('row', { name: /Approved/ })).toContainText(/\d+/);
    await expect(counts.getByText('…')).toHaveCount(0);
    await shot(page, '50-reports');
  });

  await test.step('a start after the end is refused under the date fields (422)', async () => {
    await page.getByLabel(/^Start Date/).fill('2026-05-02');
    await page.getByLabel(/^End Date/).fill('2026-05-01');
    await page.getByRole('button', { name: 'Download Report' }).click();
    await expect(page.getByText('Start Date must be before end date')).toBeVisible();
    await expect(page.getByText('End Date must be after start date')).toBeVisible();
    await expect(page.getByRole('alert').first()).toContainText(ACCESS_REQUEST_MESSAGES.reportFailed);
    await shot(page, '51-reports-422');
  });

  await test.step('self-filed requests only: the file named by the server, one row per request', async () => {
    await page.getByLabel(/^Start Date/).fill('');
    await page.getByLabel(/^End Date/).fill('');
    await page.getByRole('radio', { name: 'Submitted by the users themselves' }).check();
    const self = await download(page);
    expect(self.name).toBe('access-modification-requests_all_all_self.csv');
    expect(self.header).toEqual([...ACCESS_REPORT_COLUMNS]);
    expect(self.records.every((r) => r['Submitted By'] === 'Self')).toBe(true);
    const mine = self.records.filter((r) => r['User Email'] === subject.email);
    expect(mine).toEqual([
      expect.objectContaining({
        'Request ID': String(selfRowId),
        'Request Type': 'New Access',
        'Request Status': 'Approved',
        'User Name': `${subject.firstName} ${subject.lastName}`,
        'Study Role(s)': 'Data Manager',
        Systems: 'Portal Gateway',
        'External Ticket #': 'SR-REPORT',
      }),
    ]);
    await expect(page.getByText(`Report downloaded: ${self.name}`)).toBeVisible();
  });

  await test.step('all requests of today: the proxy-filed one too, with its proxy', async () => {
    const today = new Date().toISOString().slice(0, 10);
    await page.getByLabel(/^Start Date/).fill(today);
    await page.getByRole('radio', { name: 'All requests' }).check();
    const all = await download(page);
    expect(all.name).toBe(`access-modification-requests_${today}_all.csv`);
    const mine = all.records.filter((r) => r['User Email'] === subject.email);
    expect(mine.map((r) => r['Request ID']).sort()).toEqual([String(selfRowId), String(proxyRowId)].sort());
    expect(mine.find((r) => r['Request ID'] === String(proxyRowId))).toMatchObject({
      'Submitted By': 'Morgan Liaison',
      'Proxy Email': 'laostaff@portal.test',
    });
    await shot(page, '52-reports-downloaded');
    await signOut(page);
  });

  await test.step('a network user is told they may not run the report (403)', async () => {
    await signIn(page, 'user');
    await page.getByRole('navigation').getByRole('link', { name: 'Reports' }).click();
    await expect(page.getByRole('table', { name: 'Requests by Status' })).toHaveCount(0);
    await page.getByRole('button', { name: 'Download Report' }).click();
    await expect(page.getByRole('alert')).toContainText(
      /^.*Sorry, you don't have permission to run this report\. Please contact User Support \(.+\) if you feel this is in error\./,
    );
    await shot(page, '53-reports-forbidden');
    await signOut(page);
  });
});
