/**
 * The layouts (000 §2 Layouts, §4 Secure page): the public layout's top offset, set before the first paint;
 * '{page} | {site}' titles, the skip link, the permission-gated navigation, the denied state, the redirect
 * of a signed-out visitor, and the collapse of the side navigation below 768 px with 'Show Sidebar' /
 * 'Hide Sidebar'.
 */
import { expect, test } from '@playwright/test';
import { shot, signIn, signInThroughForm } from './support';

type Frame = { at: number; top: number };
declare global {
  interface Window {
    linkFrames?: Frame[];
  }
}

test('the public layout pushes its content down before the first paint, so nothing moves under the pointer', async ({
  page,
}) => {
  // Every animation frame from the first in which the link exists: where a person (or a click) would find it.
  await page.addInitScript(() => {
    const frames: Frame[] = [];
    window.linkFrames = frames;
    const frame = (at: number) => {
      const link = [...document.querySelectorAll('a')].find((a) => a.textContent?.trim() === 'Need an account?');
      if (link) frames.push({ at, top: link.getBoundingClientRect().top });
      requestAnimationFrame(frame);
    };
    requestAnimationFrame(frame);
  });
  await page.goto('/');
  // Longer than the resize debounce (000 §9: 150 ms) three times over, measured in the page's own frames.
  const span = () =>
    page.evaluate(() => {
      const f = window.linkFrames ?? [];
      return f.length ? f[f.length - 1]!.at - f[0]!.at : 0;
    });
  await expect.poll(span, { timeout: 15_000 }).toBeGreaterThan(500);
  const frames = await page.evaluate(() => window.linkFrames ?? []);
  expect(new Set(frames.map((f) => Math.round(f.top))).size, JSON.stringify(frames.slice(0, 12))).toBe(1);
  // 000 §2 Layouts: 20% of the viewport height minus the content's height, never below 0.
  const { expected, actual } = await page.evaluate(() => {
    const main = document.getElementById('main-content')!;
    const content = main.parentElement!;
    const pushed = content.parentElement!;
    return {
      expected: Math.max(0, (window.innerHeight - content.offsetHeight) * 0.2),
      actual: parseFloat(getComputedStyle(pushed).paddingTop),
    };
  });
  expect(expected).toBeGreaterThan(0);
  expect(Math.abs(actual - expected)).toBeLessThan(1);
});

test('a signed-out visitor is sent to sign in, with the message', async ({ page }) => {
  await page.goto('/app/user-requests');
  await expect(page).toHaveURL(/\/\?.*message=Please(\+|%20)sign(\+|%20)in/);
  await expect(page.getByText('Please sign in')).toBeVisible();
});

test('a network user sees their entries only and is denied the reviewer queue', async ({ page }) => {
  // The sign-in form itself, for a demo persona (the other journeys reuse a session made through the API).
  await signInThroughForm(page, 'user');
  await expect(page).toHaveTitle('Dashboard | Portal Gateway');
  const nav = page.getByRole('navigation');
  await expect(nav.getByRole('link', { name: 'Profile' })).toBeVisible();
  await expect(nav.getByRole('link', { name: 'User Requests', exact: true })).toHaveCount(0);
  await expect(page.getByText('Administration')).toHaveCount(0);

  await page.keyboard.press('Tab');
  const skip = page.getByRole('link', { name: 'Skip to main content' });
  await expect(skip).toBeFocused();

  await page.goto('/app/user-requests');
  await expect(page.getByText('You are not authorized to view this page')).toBeVisible();
  await shot(page, 'layout-01-denied');
});

test('the side navigation collapses below 768 px and opens with Show Sidebar', async ({ page }) => {
  await signIn(page, 'reviewer');
  await expect(page.getByRole('navigation').getByRole('link', { name: 'User Requests', exact: true })).toBeVisible();
  await page.setViewportSize({ width: 700, height: 900 });
  // The navbar slides off-screen (a transform), so 'in viewport' is what a person sees.
  const queueLink = page.getByRole('navigation').getByRole('link', { name: 'User Requests', exact: true });
  await expect(queueLink).not.toBeInViewport();
  await page.getByRole('button', { name: 'Show Sidebar' }).click();
  await expect(queueLink).toBeInViewport({ ratio: 1 });
  await shot(page, 'layout-02-narrow-open');
  await page.getByRole('button', { name: 'Hide Sidebar' }).click();
  await expect(queueLink).not.toBeInViewport();
  await page.setViewportSize({ width: 1280, height: 900 });
  await expect(queueLink).toBeInViewport();
});
