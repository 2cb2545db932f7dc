/** Helpers of the browser journeys: sign in and out as a demo persona, pick Mantine options, screenshots. */
import path from 'node:path';
import { expect, type Locator, type Page } from '@playwright/test';
import { DEMO_ACCOUNTS } from '@portal/db/seed';

const SHOTS = path.join(import.meta.dirname, '..', 'artifacts', 'screens');

/** Saves a full-page screenshot under tests/artifacts/screens (kept as a CI artifact). */
export async function shot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: path.join(SHOTS, `${name}.png`), fullPage: true });
}

export function account(username: string) {
  const found = DEMO_ACCOUNTS.find((a) => a.username === username);
  if (!found) throw new Error(`no demo account ${username}`);
  return found;
}

/** Signs in through the sign-in page (000 §2) and waits for the dashboard. */
export async function signIn(page: Page, username: string): Promise<void> {
  await page.goto('/');
  await page.getByLabel('Username or Email Address').fill(username);
  await page.getByLabel('Password').fill(account(username).password);
  await page.getByRole('button', { name: 'Sign In' }).click();
  await expect(page).toHaveURL(/\/app\/dashboard/);
}

/** Signs out through /app/signout and waits for the sign-in page. */
export async function signOut(page: Page): Promise<void> {
  await page.goto('/app/signout');
  await expect(page.getByRole('button', { name: 'Sign In' })).toBeVisible();
}

/** Opens a Mantine Select / MultiSelect and clicks the option named `option` (or the first one). */
export async function pick(page: Page, input: Locator, option?: string): Promise<string> {
  await input.click();
  const choice = option ? page.getByRole('option', { name: option, exact: true }) : page.getByRole('option').first();
  await expect(choice).toBeVisible();
  const text = (await choice.textContent())?.trim() ?? '';
  await choice.click();
  await page.keyboard.press('Escape');
  return text;
}
