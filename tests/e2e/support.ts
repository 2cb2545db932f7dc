/**
 * Helpers of the browser journeys: sign in and out as a demo persona, pick Mantine options, screenshots with
 * an axe check of the screen, caught mail, CSP violations and a second API with settings of its own.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { expect, type Locator, type Page } from '@playwright/test';
import { DEMO_ACCOUNTS } from '@portal/db/seed';
import { freePort, readMail, waitForHttp } from '@portal/scripts';

const SHOTS = path.join(import.meta.dirname, '..', 'artifacts', 'screens');
const REPO = path.join(import.meta.dirname, '..', '..');

/** The WCAG 2.2 AA rule set (issue 9): every A and AA rule of WCAG 2.0, 2.1 and 2.2. */
export const WCAG_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22a', 'wcag22aa'];

/**
 * Runs axe on the page as it is now (WCAG 2.0/2.1/2.2 A and AA) and fails the test on any violation, naming
 * the rule, its help text and the offending elements. Call it on every screen a journey visits: a screen
 * without an axe check is unfinished (issue 9).
 */
export async function expectAccessible(page: Page, screen: string): Promise<void> {
  // Let Mantine's transitions (modals, menus, notifications) settle: axe measures colours as painted.
  await page.waitForTimeout(250);
  const { violations } = await new AxeBuilder({ page }).withTags(WCAG_TAGS).analyze();
  const found = violations.map(
    (v) =>
      `${v.id} (${v.impact ?? 'n/a'}): ${v.help}\n${v.nodes.map((n) => `    ${n.target.join(' ')}: ${n.failureSummary ?? ''}`).join('\n')}`,
  );
  expect(found, `axe violations on '${screen}' (${page.url()})`).toEqual([]);
}

/**
 * Checks the screen with axe (`expectAccessible`) and saves a full-page screenshot under
 * tests/artifacts/screens (kept as a CI artifact). `axe: false` only for pages the portal does not own (the
 * Temporal Web UI).
 */
export async function shot(page: Page, name: string, { axe = true }: { axe?: boolean } = {}): Promise<void> {
  if (axe) await expectAccessible(page, name);
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
  await page.getByLabel('Password', { exact: true }).fill(account(username).password);
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

/** Fills and submits the sign-in form without waiting for a page (000 §2 Sign-in screen). */
export async function submitSignIn(page: Page, username: string, password = account(username).password): Promise<void> {
  await page.goto('/');
  await page.getByLabel('Username or Email Address').fill(username);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign In' }).click();
}

/** Collects the browser's Content-Security-Policy violations (helmet's CSP must not break the app). */
export function watchCsp(page: Page): string[] {
  const violations: string[] = [];
  page.on('console', (msg) => {
    if (msg.type() === 'error' && /Content Security Policy/i.test(msg.text())) violations.push(msg.text());
  });
  return violations;
}

/** Waits for the newest caught mail to `to` whose subject contains `subjectPart`; returns the first link in it. */
export async function linkFromMail(to: string, subjectPart: string, timeoutMs = 20_000): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const mails = await readMail(process.env.MAIL_API_URL!);
    const hit = mails.reverse().find((m) => m.to.some((t) => t.address === to) && m.subject.includes(subjectPart));
    const link = /https?:\/\/\S+/.exec(hit?.text ?? '')?.[0];
    if (link) return link;
    await new Promise((r) => setTimeout(r, 300));
  }
  throw new Error(`no mail to ${to} with '${subjectPart}' within ${timeoutMs} ms`);
}

export interface ExtraApi {
  url: string;
  stop(): Promise<void>;
}

/**
 * Starts a second API process (serving the built web app) on the stack's services with `overrides`, e.g.
 * SESSION_TIMEOUT_SECONDS, for journeys that need settings of their own.
 */
export async function startExtraApi(overrides: Record<string, string>): Promise<ExtraApi> {
  const portalEnv = JSON.parse(process.env.E2E_PORTAL_ENV ?? '{}') as Record<string, string>;
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const proc = spawn(process.execPath, ['--import', 'tsx', path.join(REPO, 'api', 'src', 'main.ts')], {
    cwd: REPO,
    env: {
      ...process.env,
      ...portalEnv,
      PORT: String(port),
      PORTAL_URL: url,
      LOG_LEVEL: 'warn',
      // The stack's API already listens on the e-learning port: this one serves packages sandboxed instead.
      ELEARNING_PORT: '',
      ELEARNING_ORIGIN: '',
      ...overrides,
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const exited = new Promise<void>((resolve) => proc.once('exit', () => resolve()));
  const stop = async () => {
    if (proc.exitCode === null && proc.signalCode === null) proc.kill('SIGTERM');
    await exited;
  };
  try {
    await waitForHttp(`${url}/rest/public/health`, 'second API', 60_000, () => proc.exitCode === null);
  } catch (err) {
    await stop();
    throw err;
  }
  return { url, stop };
}

/**
 * Fails when the table needs sideways scrolling (issue 9: at 1280 px every column, the last one included,
 * is in view): the first ancestor of the table that scrolls horizontally must be as wide as its content.
 */
export async function expectNoSidewaysScroll(table: Locator): Promise<void> {
  const widths = await table.evaluate((el) => {
    let box: HTMLElement | null = el.parentElement;
    while (box && !['auto', 'scroll'].includes(getComputedStyle(box).overflowX)) box = box.parentElement;
    const container = box ?? document.documentElement;
    return { scrollWidth: container.scrollWidth, clientWidth: container.clientWidth };
  });
  expect(widths.scrollWidth, 'the table container scrolls sideways').toBeLessThanOrEqual(widths.clientWidth);
}
