/**
 * The side navigation's external entries and order (000 §2 Routes; issue 23): 'User Manual (PDF)' opens the
 * manual in a new tab, which answers a PDF (the API's /manual/user-manual.pdf, the web app's default
 * USER_MANUAL_URL), and the Administration entries read User Requests, Users, Configure, Audit Trail. Axe on
 * the navigation at desktop size and, opened with 'Show Sidebar', at phone size.
 */
import { expect, test, type Page } from '@playwright/test';
import { buildManualPdf } from '@portal/scripts/manual';
import { shot, signIn } from './support';

// A fresh clone has no PDF until scripts/install.sh or npm run build made one; a no-op when it is up to date.
test.beforeAll(async () => {
  await buildManualPdf();
});

const manualLink = (page: Page) => page.getByRole('navigation').getByRole('link', { name: /^User Manual \(PDF\)/ });

test('User Manual (PDF) opens a PDF in a new tab; the Administration entries keep the spec’s order', async ({
  page,
}) => {
  await signIn(page, 'admin');
  const nav = page.getByRole('navigation', { name: 'Main navigation' });
  // The Administration entries appear once the permissions have loaded.
  await expect(nav.getByRole('link', { name: 'Audit Trail' })).toBeVisible();
  const labels = (await nav.getByRole('link').allTextContents()).map((t) => t.trim());
  const admin = ['User Requests', 'Users', 'Configure', 'Audit Trail'];
  expect(labels.filter((l) => admin.includes(l))).toEqual(admin);
  // The admin entries follow the heading, the manual comes last.
  expect(labels.indexOf('User Requests')).toBeGreaterThan(labels.indexOf('Reports'));
  expect(labels.at(-1)).toMatch(/^User Manual \(PDF\)/);

  const link = manualLink(page);
  await expect(link).toHaveAttribute('target', '_blank');
  await expect(link).toHaveAttribute('rel', /noopener/);
  await expect(link).toHaveAccessibleName('User Manual (PDF) (opens in a new tab)');
  await shot(page, 'user-manual-01-navigation');

  const answered = page
    .context()
    .waitForEvent('response', (r) => new URL(r.url()).pathname === '/manual/user-manual.pdf');
  const popup = page.waitForEvent('popup');
  await link.click();
  const response = await answered;
  expect(response.status()).toBe(200);
  expect(response.headers()['content-type']).toBe('application/pdf');
  // The viewer tab's response body is the browser's to read; fetch the same address for the bytes.
  const bytes = await (await page.request.get(response.url())).body();
  expect(bytes.subarray(0, 5).toString()).toBe('%PDF-');
  const tab = await popup;
  expect(new URL(tab.url()).pathname).toBe('/manual/user-manual.pdf');
  await tab.close();
  // The portal's own tab stays where it was.
  await expect(page).toHaveURL(/\/app\/dashboard/);
});

test('the navigation with the manual entry at phone size', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await signIn(page, 'reviewer');
  await page.getByRole('button', { name: 'Show Sidebar' }).click();
  const link = manualLink(page);
  await link.scrollIntoViewIfNeeded();
  await expect(link).toBeInViewport();
  await shot(page, 'user-manual-02-phone-navigation');
});
