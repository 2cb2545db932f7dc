/**
 * Proxy bulk access-change requests (001 §2.7, §4 Proxy submission, §8 Proxy outcomes): a user without the
 * proxy right reads the spec's sentence and has no menu entry; LAO staff picks an AO, filters and selects a
 * few dozen users, fills two role blocks (the form is disabled until a user is selected; every user gets one
 * request per block), submits, watches the progress bar and each user's results land on their row, reloads
 * while the batch runs (held at its first user by the filing locks; the page re-attaches to the running
 * batch), and ends with the summary alert, whose counts are the per-block results' and which goes after
 * 10,000 ms (001 §9), and 'Submit Another Request'; a reviewer then reads one filed request with the proxy's
 * own comment and who filed it, not the raw marker. Axe on every screen.
 */
import { expect, test } from '@playwright/test';
import { PROXY_MESSAGES } from '@portal/contract';
import { holdFilingLock } from '../support/filing-locks';
import { journeyPrisma } from '../support/journey-users';
import { pick, shot, signIn, signOut } from './support';

test('a proxy batch of a few dozen users, watched to its summary', async ({ page }) => {
  await signIn(page, 'user');
  await expect(page.getByRole('link', { name: 'Request Access Change for Others' })).toHaveCount(0);
  await page.goto('/app/proxy-access-change-request');
  await expect(page.getByText(PROXY_MESSAGES.noPermission)).toBeVisible();
  await shot(page, 'proxy-batch-01-no-right');
  await signOut(page);

  await signIn(page, 'laostaff');
  await page.getByRole('link', { name: 'Request Access Change for Others' }).click();
  await expect(page.getByRole('heading', { level: 1, name: PROXY_MESSAGES.pageTitle })).toBeVisible();
  await expect(page.getByText(PROXY_MESSAGES.selectUser)).toBeVisible();
  await expect(page.getByRole('button', { name: 'Submit Request' })).toBeDisabled();
  await shot(page, 'proxy-batch-02-empty');

  // The first LAO (its users and those of its AOs); they load 1000 ms after the pick settles.
  await pick(page, page.getByRole('combobox', { name: 'AO / LAO' }));
  const selectAll = page.getByRole('button', { name: /^Select all \d+ users$/ });
  await expect(selectAll).toBeVisible({ timeout: 20_000 });
  const count = Number(/\d+/.exec((await selectAll.textContent()) ?? '')![0]);
  expect(count).toBeGreaterThan(10);
  expect(count).toBeLessThan(200);
  // The filter box narrows the table; the signed-in user is never listed.
  const firstLastName = (await page.getByRole('table').getByRole('row').nth(1).getByRole('cell').nth(2).textContent())!;
  await page.getByLabel('Filter users').fill(firstLastName.trim());
  await expect(page.getByText(/^\d+ of \d+ records shown$/)).toBeVisible();
  await page.getByLabel('Filter users').fill('');
  await expect(page.getByRole('table').getByText('laostaff@portal.test')).toHaveCount(0);
  await selectAll.click();
  await expect(page.getByRole('heading', { name: `3. Selected users (${count})` })).toBeVisible();
  await expect(page.getByText(PROXY_MESSAGES.selectUser)).toHaveCount(0);
  await shot(page, 'proxy-batch-03-selected');

  const role1 = page.getByRole('group', { name: 'Role #1' });
  await pick(page, role1.getByRole('combobox', { name: 'Study Role' }), 'Data Manager');
  await pick(page, role1.getByRole('combobox', { name: /^Studies/ }));
  // A second block: each user gets a second request, for this role.
  await page.getByRole('button', { name: 'Add new role' }).click();
  const role2 = page.getByRole('group', { name: 'Role #2' });
  await pick(page, role2.getByRole('combobox', { name: 'Study Role' }), 'Safety Reviewer');
  const requests = count * 2;
  await page.getByLabel(/^Comments/).fill('Added for the new protocol');
  // Every user's filing lock is held until the reload is done: the batch waits at its first user, so the
  // reload lands while it runs.
  const prisma = journeyPrisma();
  const everyone = await prisma.portalUser.findMany({ select: { id: true } });
  const release = await holdFilingLock(
    prisma,
    everyone.map((u) => u.id),
  );
  const summary = page.getByRole('status').filter({ hasText: PROXY_MESSAGES.submittedTitle });
  let url: string;
  try {
    await page.getByRole('button', { name: 'Submit Request' }).click();
    await expect(page).toHaveURL(/batch=\d+/);
    // Nobody is filed yet: the bar is there at 0 % (an empty bar has no visible width).
    const bar = page.getByRole('progressbar', { name: 'Submitted requests' });
    await expect(bar).toHaveAttribute('aria-valuenow', '0');
    await expect(page.getByRole('list', { name: 'Per-user results' }).getByRole('listitem')).toHaveCount(count);
    // A reload while it runs re-attaches to the same batch.
    url = page.url();
    await page.reload();
    await expect(page).toHaveURL(url);
    await expect(page.getByText(`Submitting 0 of ${requests} requests`)).toBeVisible();
    await expect(bar).toHaveAttribute('aria-valuenow', '0');
    await expect(summary).toHaveCount(0);
  } finally {
    await release();
  }

  await expect(summary).toBeVisible({ timeout: 60_000 });
  const shownAt = Date.now();
  const summaryText = await summary.textContent();
  await shot(page, 'proxy-batch-04-summary');
  // 001 §8 'N users with X successes and Y failures', all three in users: a user is a success when each of
  // their role blocks was filed, a failure when any was not.
  const batchId = Number(new URL(url).searchParams.get('batch'));
  const items = await prisma.proxyBatchItem.findMany({ where: { batchId }, orderBy: { requestNum: 'asc' } });
  expect(items).toHaveLength(requests);
  expect(items.map((i) => i.blockNum)).toEqual(items.map((_, n) => (n % 2) + 1));
  expect(items.every((i) => i.responseStatus !== null)).toBe(true);
  const successes = items.filter((i) => i.success).length;
  expect(successes).toBeGreaterThan(0);
  const failedUsers = new Set(items.filter((i) => !i.success).map((i) => i.portalUserId)).size;
  expect(summaryText).toContain(PROXY_MESSAGES.submitted(count, count - failedUsers, failedUsers));
  await expect(page.getByText(`Processed ${requests} of ${requests} requests`)).toBeVisible();
  const results = page.getByRole('list', { name: 'Per-user results' });
  await expect(results.getByRole('listitem')).toHaveCount(count);
  await expect(results.getByText('Waiting', { exact: true })).toHaveCount(0);
  await expect(results.getByText('Not submitted', { exact: true })).toHaveCount(requests - successes);
  // 001 §9: proxy alerts go after 10,000 ms.
  await expect(summary).toHaveCount(0, { timeout: 20_000 });
  expect(Date.now() - shownAt).toBeGreaterThan(8_000);

  await page.getByRole('button', { name: 'Submit Another Request' }).click();
  await expect(page).not.toHaveURL(/batch=/);
  await expect(page.getByRole('combobox', { name: 'AO / LAO' })).toBeVisible();
  await expect(page.getByText(PROXY_MESSAGES.selectUser)).toBeVisible();

  // The reviewer reads a filed request: the proxy's own comment and who filed it, never the raw marker.
  const item = await prisma.proxyBatchItem.findFirstOrThrow({
    where: { batchId, responseStatus: 200 },
    orderBy: { requestNum: 'asc' },
  });
  await prisma.$disconnect();
  await signOut(page);
  await signIn(page, 'reviewer');
  await page.goto(`/app/user-requests/access-change/${item.accessModRequestId}`);
  await expect(page.getByRole('textbox', { name: 'Requester Comments' })).toHaveValue('Added for the new protocol');
  await expect(page.getByText('Submitted by proxy: Morgan Liaison')).toBeVisible();
  await expect(page.getByText('[Proxy request]')).toHaveCount(0);
  await shot(page, 'proxy-batch-05-review-proxy-request');
});
