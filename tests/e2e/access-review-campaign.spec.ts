/**
 * Access review campaigns (issue 25 "Access review campaigns", Tests and Done when): an administrator starts a
 * campaign over one LAO (MA036) with a short duration; the LAO staff reviewer ('laostaff') follows the
 * invitation mail to Access Reviews, removes one person's access (a comment required) and bulk-keeps the
 * rest, with per-item results and the history of an item; the administrator downloads the decisions, closes
 * the campaign early and sees it closed; the removed person's access is gone from their Access tab, the audit
 * trail holds the removal and the mail reached them; the reviewer then sees the campaign read-only. Then an
 * administrator saves a recurring review, finds its schedule through the Temporal UI link and deactivates it.
 * Axe (WCAG 2.2 AA) at desktop and phone sizes on every screen.
 */
import fs from 'node:fs';
import { expect, type Page, test } from '@playwright/test';
import { ACCESS_REVIEW_MESSAGES } from '@portal/contract';
import { readMail } from '@portal/scripts';
import { journeyPrisma, makeJourneyUser, type JourneyUser } from '../support/journey-users';
import { account, linkFromMail, shot, signIn, signInWith, signOut } from './support';

const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 900 };

/** Checks the screen at desktop size, then at phone size, then goes back to desktop. */
async function bothSizes(page: Page, name: string): Promise<void> {
  await shot(page, `access-review-campaign-${name}`);
  await page.setViewportSize(PHONE);
  await shot(page, `access-review-campaign-${name}-phone`);
  await page.setViewportSize(DESKTOP);
}

/** Signs in as a journey user (not a demo persona) and waits for the dashboard. */
async function signInAs(page: Page, user: JourneyUser): Promise<void> {
  await signInWith(page, user);
}

/** Waits for the mail to `to` whose subject contains `subjectPart`; returns its subject. */
async function mailTo(to: string, subjectPart: string): Promise<string> {
  let subject = '';
  await expect(async () => {
    const mails = await readMail(process.env.MAIL_API_URL!);
    subject = mails.find((m) => m.to.some((t) => t.address === to) && m.subject.includes(subjectPart))?.subject ?? '';
    expect(subject).not.toBe('');
  }).toPass({ timeout: 60_000 });
  return subject;
}

test('a campaign over one LAO: laostaff removes one access and keeps the rest, the admin closes it early', async ({
  page,
}) => {
  test.setTimeout(300_000);
  const prisma = journeyPrisma();
  // Three people of MA036 made for this run (their usernames share 'arcamp'); one loses the Site Investigator
  // access, keeping their Data Manager access.
  const keepA = await makeJourneyUser(prisma, 'arcampkeep', [{ roleName: 'Site Investigator', laoIds: ['MA036'] }]);
  const keepB = await makeJourneyUser(prisma, 'arcampstay', [{ roleName: 'Data Manager', laoIds: ['MA036'] }]);
  const gone = await makeJourneyUser(prisma, 'arcampgone', [
    { roleName: 'Site Investigator', laoIds: ['MA036'] },
    { roleName: 'Data Manager', laoIds: ['MA036'] },
  ]);
  const name = `MA036 review ${gone.username.slice(-6)}`;
  let campaignUrl = '';

  await test.step('an administrator starts a campaign over MA036 with a one-day duration', async () => {
    await signIn(page, 'admin');
    await page.getByRole('navigation').getByRole('link', { name: 'Access Review Campaigns' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Access Review Campaigns' })).toBeVisible();
    await page.getByRole('link', { name: 'New campaign' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'New Access Review Campaign' })).toBeVisible();
    await page.getByRole('textbox', { name: /^Name/ }).fill(name);
    await page.getByRole('combobox', { name: 'LAOs' }).fill('MA036');
    await page.getByRole('option', { name: /^MA036 - / }).click();
    await page.keyboard.press('Escape');
    await page.getByRole('textbox', { name: 'Duration (days)' }).fill('1');
    await page.getByRole('radio', { name: 'Remove the access' }).check();
    await expect(page.getByText('Undecided access will be removed')).toBeVisible();
    await bothSizes(page, '01-new-campaign');
    await page.getByRole('radio', { name: 'Keep the access' }).check();
    await page.getByRole('button', { name: 'Start campaign' }).click();
    await expect(page).toHaveURL(/\/app\/access-review-campaigns\/\d+$/);
    campaignUrl = new URL(page.url()).pathname;
    await expect(page.getByText(ACCESS_REVIEW_MESSAGES.started(name))).toBeVisible();
    // The workflow snapshots the records, then the campaign opens (the page re-reads itself meanwhile).
    await expect(page.getByTestId('campaign-status')).toHaveText('Open', { timeout: 60_000 });
    expect(Number(await page.getByTestId('count-items').textContent())).toBeGreaterThanOrEqual(4);
    await expect(page.getByRole('link', { name: /Open workflow in Temporal UI/ })).toHaveAttribute(
      'href',
      /access-review-\d+/,
    );
    await bothSizes(page, '02-campaign-open');
    await page.getByRole('link', { name: /Back to Access Review Campaigns/ }).click();
    const row = page.getByRole('row').filter({ hasText: name });
    await expect(row).toContainText('Open');
    await expect(row.getByRole('link', { name: `Temporal UI of ${name} (opens in a new tab)` })).toBeVisible();
    await bothSizes(page, '03-campaigns');
    await signOut(page);
  });

  await test.step('laostaff follows the invitation mail and decides', async () => {
    const link = await linkFromMail(account('laostaff').email, `access review ${name} needs your decisions`, 60_000);
    expect(link).toContain('/app/access-reviews?campaignId=');
    await signIn(page, 'laostaff');
    await expect(page.getByRole('navigation').getByRole('link', { name: 'Access Reviews' })).toBeVisible();
    await page.goto(new URL(link).pathname + new URL(link).search);
    await expect(page.getByRole('heading', { level: 1, name: 'Access Reviews' })).toBeVisible();
    await expect(page.getByRole('combobox', { name: 'Campaign' })).toHaveValue(name);
    // laostaff never reviews their own LAO Staff access.
    await expect(page.getByRole('rowheader', { name: /laostaff/ })).toHaveCount(0);

    const table = page.getByRole('table', { name: 'Review items' });
    await page.getByLabel('Filter items').fill('arcamp');
    await expect(table.getByRole('rowheader')).toHaveCount(3);
    await expect(page.getByText('4 of 4 items shown')).toBeVisible();
    const history = table.getByRole('button', { name: `History of Site Investigator of Jamie ${keepA.lastName}` });
    await history.click();
    await expect(history).toHaveAttribute('aria-expanded', 'true');
    await expect(page.getByText('Problem loading the history of this access.')).toHaveCount(0);
    await bothSizes(page, '04-reviewer-items');

    // Remove: one access of one person, with a comment.
    await table.getByRole('checkbox', { name: `Select Site Investigator of Jamie ${gone.lastName}` }).check();
    await expect(page.getByText('1 selected')).toBeVisible();
    await page.getByRole('button', { name: 'Remove', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Remove access' });
    await expect(dialog.getByText(/1 item will lose access when the campaign closes/)).toBeVisible();
    await dialog.getByRole('button', { name: 'Remove access for 1 item' }).click();
    await expect(dialog.getByText(ACCESS_REVIEW_MESSAGES.commentRequired)).toBeVisible();
    await dialog.getByRole('textbox', { name: /Comment/ }).fill('Left the study in October');
    await expect(dialog.getByText('25 / 250 characters')).toBeVisible();
    await shot(page, 'access-review-campaign-05-remove-dialog');
    await dialog.getByRole('button', { name: 'Remove access for 1 item' }).click();
    await expect(dialog).toHaveCount(0);
    const results = page.getByRole('list', { name: 'Per-item results' });
    await expect(results.getByRole('listitem')).toHaveText([`Site Investigator of Jamie ${gone.lastName} Saved`]);

    // Keep: the rest of this filter, by 'select all on this page'.
    await expect(page.getByText('3 of 3 items shown')).toBeVisible();
    await table.getByRole('checkbox', { name: 'Select all items on this page' }).check();
    await expect(page.getByText('3 selected')).toBeVisible();
    await page.getByRole('button', { name: 'Keep', exact: true }).click();
    await expect(page.getByText(`${ACCESS_REVIEW_MESSAGES.decided(3)}.`)).toBeVisible();
    await expect(results.getByRole('listitem')).toHaveCount(3);
    await expect(results.getByText('Refused')).toHaveCount(0);
    await expect(page.getByText('No items match the filter.')).toBeVisible();

    // Every decision of the filter, changeable until the campaign closes.
    // The switch is kept in the address: the radio shows checked once the URL has changed (hence no check()).
    await page.getByRole('radio', { name: 'All' }).click();
    await expect(page.getByRole('radio', { name: 'All' })).toBeChecked();
    await expect(table.getByText('Remove', { exact: true })).toHaveCount(1);
    await expect(table.getByText('Keep', { exact: true })).toHaveCount(3);
    await expect(table.getByText('laostaff', { exact: true })).toHaveCount(4);
    await bothSizes(page, '06-reviewer-decided');
    await signOut(page);
  });

  await test.step('the administrator downloads the decisions and closes the campaign early', async () => {
    await signIn(page, 'admin');
    await page.goto(campaignUrl);
    await expect(page.getByTestId('count-to-remove')).toHaveText('1');
    await expect(page.getByTestId('decisions-chart')).toBeVisible();
    await expect(
      page.getByRole('table', { name: 'Decisions by reviewer and undecided items by pool' }).getByRole('row', {
        name: /laostaff/,
      }),
    ).toContainText('3');
    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Download decisions (CSV)' }).click();
    const file = await download;
    expect(file.suggestedFilename()).toMatch(/\.csv$/);
    const csv = fs.readFileSync(await file.path(), 'utf8');
    expect(csv).toContain(gone.username);
    expect(csv).toContain('Left the study in October');

    await page.getByRole('button', { name: 'Close now' }).click();
    const dialog = page.getByRole('dialog', { name: 'Close the campaign now?' });
    await expect(dialog).toContainText('every access decided Remove is removed');
    await shot(page, 'access-review-campaign-07-close-dialog');
    await dialog.getByRole('button', { name: 'Close now' }).click();
    await expect(page.getByText(ACCESS_REVIEW_MESSAGES.closing)).toBeVisible();
    await expect(page.getByTestId('campaign-status')).toHaveText('Closed', { timeout: 90_000 });
    await expect(page.getByTestId('count-removed')).toHaveText('1');
    await expect(page.getByRole('button', { name: 'Close now' })).toHaveCount(0);
    await bothSizes(page, '08-campaign-closed');

    // The removal's audit row, on the person's access records.
    await page.goto(`/app/audit-trail?entityType=UserAccess&entityId=${gone.id}`);
    await expect(page.getByText('Access removed by review').first()).toBeVisible();
    await signOut(page);
  });

  await test.step("the removed person's access is gone and the mail reached them", async () => {
    const subject = await mailTo(gone.email, 'your access was removed in the access review');
    expect(subject).toContain(name);
    await signInAs(page, gone);
    await page.goto('/app/profile?tab=access');
    const access = page.getByRole('table', { name: 'Your access' });
    await expect(access.getByText('Data Manager')).toBeVisible();
    await expect(access.getByText('Site Investigator')).toHaveCount(0);
    await shot(page, 'access-review-campaign-09-person-access');
    await signOut(page);
    const left = await prisma.userAccess.findMany({ where: { portalUserId: gone.id, inactive: false } });
    expect(left.map((a) => a.roleName)).toEqual(['Data Manager']);
    const kept = await prisma.userAccess.count({
      where: { portalUserId: { in: [keepA.id, keepB.id] }, inactive: false },
    });
    expect(kept).toBe(2);
    await prisma.$disconnect();
  });

  await test.step('the reviewer sees the closed campaign read-only with its outcomes', async () => {
    await signIn(page, 'laostaff');
    await page.goto(`/app/access-reviews?${new URLSearchParams({ campaignId: campaignUrl.split('/').pop()! })}`);
    await expect(page.getByText(/This campaign is no longer open/)).toBeVisible();
    const table = page.getByRole('table', { name: 'Review items' });
    await expect(table.getByText('Removed', { exact: true })).toHaveCount(1);
    await expect(table.getByRole('checkbox')).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'Keep', exact: true })).toHaveCount(0);
    await bothSizes(page, '10-reviewer-closed');
    await signOut(page);
  });
});

test('an administrator saves a recurring review, opens its schedule in the Temporal UI and deactivates it', async ({
  page,
}) => {
  const name = `NY016 quarterly ${Date.now().toString(36)}`;
  await signIn(page, 'admin');
  await page.goto('/app/access-review-campaigns/new');
  await page.getByRole('textbox', { name: /^Name/ }).fill(name);
  await page.getByRole('combobox', { name: 'LAOs' }).fill('NY016');
  await page.getByRole('option', { name: /^NY016 - / }).click();
  await page.keyboard.press('Escape');
  await page.getByRole('radio', { name: 'User Support only' }).check();
  await page.getByRole('radio', { name: 'Recurring, the first one now' }).check();
  await page.getByRole('textbox', { name: 'Every (days)', exact: true }).fill('30');
  await page.getByRole('textbox', { name: 'Reminder every (days)' }).fill('0');
  await bothSizes(page, '11-new-recurring');
  await page.getByRole('button', { name: 'Save recurring review' }).click();
  await expect(page).toHaveURL(/\/app\/access-review-campaigns\?tab=recurring$/);
  await expect(page.getByText(ACCESS_REVIEW_MESSAGES.scheduled(name))).toBeVisible();
  const row = page.getByRole('row').filter({ hasText: name });
  await expect(row).toContainText('Active');
  await expect(row).toContainText('30');
  const link = row.getByRole('link', { name: `Temporal UI of ${name} (opens in a new tab)` });
  const href = (await link.getAttribute('href'))!;
  expect(href).toMatch(/access-review-schedule-\d+/);
  await bothSizes(page, '12-recurring');

  // The schedule in the Temporal Web UI (not the portal's page: no axe).
  const scheduleId = /access-review-schedule-\d+/.exec(href)![0];
  const ui = await page.context().newPage();
  await expect(async () => {
    await ui.goto(href);
    await expect(ui.getByText(scheduleId).first()).toBeVisible({ timeout: 5_000 });
  }).toPass({ timeout: 30_000 });
  await shot(ui, 'access-review-campaign-13-temporal-schedule', { axe: false });
  await ui.close();

  // Its first campaign started now.
  await page.getByRole('tab', { name: 'Campaigns' }).click();
  await expect(page.getByRole('row').filter({ hasText: name })).toBeVisible({ timeout: 30_000 });

  await page.getByRole('tab', { name: 'Recurring reviews' }).click();
  await row.getByRole('button', { name: `Deactivate ${name}` }).click();
  const dialog = page.getByRole('dialog', { name: `Deactivate ${name}?` });
  await expect(dialog).toContainText('No further campaigns will be started');
  await shot(page, 'access-review-campaign-14-deactivate-dialog');
  await dialog.getByRole('button', { name: 'Deactivate' }).click();
  await expect(row).toContainText('Inactive');
  await expect(row.getByRole('button', { name: `Deactivate ${name}` })).toHaveCount(0);
  await signOut(page);
});
