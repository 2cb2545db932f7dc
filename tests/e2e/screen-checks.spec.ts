/**
 * The screen checks themselves (`expectAccessible`, `expectBeyondAxe`): on a page with known faults each one
 * fails and names the fault, so a journey that passes them has been checked, not waved through. The pages are
 * served by the browser's own routing on an address of their own (no portal needed).
 */
import { expect, type Page, test } from '@playwright/test';
import { expectBeyondAxe } from './screen-checks';
import { expectAccessible } from './support';

const ORIGIN = 'http://screen-checks.test';

/** Serves `pages` (path → body of an English page with a title) at ORIGIN and opens the first. */
async function serve(page: Page, pages: Record<string, string>): Promise<void> {
  await page.route(`${ORIGIN}/**`, (route) => {
    const body = pages[new URL(route.request().url()).pathname];
    return body === undefined
      ? route.fulfill({ status: 404 })
      : route.fulfill({
          contentType: 'text/html',
          body: `<!doctype html><html lang="en"><head><title>Checks</title></head><body>${body}</body></html>`,
        });
  });
  await page.goto(`${ORIGIN}${Object.keys(pages)[0]}`);
}

test('axe in the page finds a WCAG violation, in the page and in a same-origin frame', async ({ page }) => {
  await serve(page, {
    '/image': '<main><h1>Faults</h1><img src="data:image/gif;base64,R0lGODlhAQABAAAAACw="></main>',
    '/frame': '<main><h1>Frame</h1><iframe title="inner" src="/inner"></iframe></main>',
    '/inner': '<main><h1>Inner</h1><button></button></main>',
    '/fine': '<main><h1>Fine</h1><p>Nothing wrong here.</p></main>',
  });
  await expect(expectAccessible(page, 'image without a text alternative')).rejects.toThrow(/image-alt/);
  // A second check of the same document runs the axe already in it and still finds the fault.
  await expect(expectAccessible(page, 'the same page again')).rejects.toThrow(/image-alt/);
  await page.goto(`${ORIGIN}/frame`);
  await expect(page.frameLocator('iframe').locator('button')).toHaveCount(1);
  await expect(expectAccessible(page, 'button without a name in a frame')).rejects.toThrow(/button-name/);
  await page.goto(`${ORIGIN}/fine`);
  await expectAccessible(page, 'a page without faults');
});

test('the checks beyond axe find text that widens a 320 px screen', async ({ page }) => {
  await serve(page, {
    '/wide':
      '<main><h1>Wide</h1><p style="width: 200px">averyveryveryveryveryverylongaddresswithoutanybreak@example.org</p></main>',
  });
  await expect(expectBeyondAxe(page, 'an unbreakable address')).rejects.toThrow(/wider than the screen: text of <p>/);
});
