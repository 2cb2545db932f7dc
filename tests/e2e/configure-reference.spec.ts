/**
 * Reference data in the browser (000 §3, §4 Reference data loading, §7): sites are kept in session storage
 * under apiSites, and the other lists are revalidated with their ETag, so a reload costs no query (the
 * server answers 304 and the page still has its lists).
 */
import { expect, test, type Response } from '@playwright/test';
import { shot, signIn } from './support';

test('a reload revalidates reference data (304) and reads the sites from session storage', async ({ page }) => {
  await signIn(page, 'user');
  const requestPage = '/app/profile/request-new-or-modified-access?accessRequestType=NEW';
  const firstLoad = page.waitForResponse((r) => r.url().endsWith('/rest/public/studies'));
  await page.goto(requestPage);
  const first = await firstLoad;
  expect(first.status()).toBe(200);
  expect(first.headers().etag).toBeTruthy();
  await expect(page.getByRole('heading', { name: 'Request New Access', level: 1 })).toBeVisible();
  const stored = await page.evaluate(() => sessionStorage.getItem('apiSites'));
  expect(JSON.parse(stored ?? '[]').length).toBeGreaterThan(0);

  const seen: Response[] = [];
  page.on('response', (r) => {
    if (r.url().includes('/rest/public/')) seen.push(r);
  });
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Request New Access', level: 1 })).toBeVisible();
  await expect.poll(() => seen.some((r) => r.url().endsWith('/rest/public/studies'))).toBe(true);
  const studies = seen.find((r) => r.url().endsWith('/rest/public/studies'))!;
  // The browser revalidated its stored copy: the server's 304 reaches the page as the cached 200.
  const sent = await studies.request().allHeaders();
  expect(sent['if-none-match']).toBe(first.headers().etag);
  expect(seen.some((r) => r.url().endsWith('/rest/public/sites'))).toBe(false);
  // The form still has its lists: the study roles and studies come from the revalidated copies.
  await expect(page.getByRole('combobox', { name: 'Study Role' })).toBeEnabled();
  await shot(page, '31-request-form-after-reload');
});
