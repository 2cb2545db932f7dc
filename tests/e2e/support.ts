/**
 * Helpers of the browser journeys: sign in and out as a demo persona, pick Mantine options, screenshots with
 * an axe check of the screen, caught mail, CSP violations and a second API with settings of its own.
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import {
  expect,
  type Locator,
  type Page,
  type Request as PageRequest,
  type Response as PageResponse,
} from '@playwright/test';
import { CONSTANTS, expiryStateOf, type PasswordExpiryState, type TokenCreateResponse } from '@portal/contract';
import { DEMO_ACCOUNTS } from '@portal/db/seed';
import { readMail } from '@portal/scripts';
import { type ExtraApi, startExtraApi as startApiProcess } from '../support/extra-api';
import { expectBeyondAxe } from './screen-checks';

const SHOTS = path.join(import.meta.dirname, '..', 'artifacts', 'screens');
const REPO = path.join(import.meta.dirname, '..', '..');

/** The WCAG 2.2 AA rule set (issue 9): every A and AA rule of WCAG 2.0, 2.1 and 2.2. */
export const WCAG_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22a', 'wcag22aa'];

/**
 * Resolves once the page has painted its last change and no finite animation or CSS transition is running
 * (Mantine's modal, drawer and menu transitions; spinners, which run forever, are not waited for). Fails after
 * `timeoutMs` naming the animations still running. Use it instead of a fixed pause before a check or a picture.
 */
export async function settled(page: Page, timeoutMs = 10_000): Promise<void> {
  const running = () =>
    page.evaluate(async () => {
      await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
      return document
        .getAnimations()
        .filter((a) => a.playState === 'running' && a.effect?.getComputedTiming().iterations !== Infinity)
        .map((a) => (a instanceof CSSTransition ? `transition of ${a.transitionProperty}` : a.id || 'an animation'));
    });
  await expect.poll(running, { timeout: timeoutMs, message: 'animations still running on the page' }).toEqual([]);
}

/** What a check reads of axe-core's `axe.run` in the page. */
interface AxeInPage {
  run(
    context: Document,
    options: { runOnly: { type: 'tag'; values: string[] }; resultTypes: string[] },
  ): Promise<{
    violations: Array<{
      id: string;
      impact?: string | null;
      help: string;
      nodes: Array<{ target: unknown[]; failureSummary?: string }>;
    }>;
  }>;
}

/** axe-core's browser script, the version @axe-core/playwright pins. */
const AXE_SOURCE = fs.readFileSync(
  createRequire(createRequire(import.meta.url).resolve('@axe-core/playwright')).resolve('axe-core/axe.min.js'),
  'utf8',
);

/**
 * Puts axe into every frame of the page that does not hold it yet, configured for same-origin frames. Frames
 * of another origin (the e-learning viewer, the visualization) refuse or never answer within a second and are
 * left out: they are never the portal's own content.
 */
async function ensureAxe(page: Page): Promise<void> {
  for (const frame of page.frames()) {
    try {
      const run = async () => {
        if (await frame.evaluate('typeof window.axe?.run === "function"')) return;
        await frame.evaluate(AXE_SOURCE);
        await frame.evaluate('axe.configure({ allowedOrigins: ["<same_origin>"] })');
      };
      await Promise.race([run(), new Promise((_, reject) => setTimeout(() => reject(new Error('timeout')), 1_000))]);
    } catch {
      // Another origin's frame: see above.
    }
  }
}

/**
 * Runs axe on the page as it is now (WCAG 2.0/2.1/2.2 A and AA) and fails the test on any violation, naming
 * the rule, its help text and the offending elements. Call it on every screen a journey visits: a screen
 * without an axe check is unfinished (issue 9).
 *
 * axe runs inside the page, frames included, and returns violations only: @axe-core/playwright's default mode
 * opens a blank page per check to merge each frame's results and serialises every passing node, and even its
 * legacy mode evaluates axe's 650 KB script twice on every check. Here the script enters a document once and
 * stays for every later check of that document (a single-page app keeps it across its own navigations);
 * `axe.run` builds its view of the page afresh each time.
 */
export async function expectAccessible(page: Page, screen: string): Promise<void> {
  // Let Mantine's transitions (modals, menus, notifications) settle: axe measures colours as painted.
  await settled(page);
  await ensureAxe(page);
  const found = await page.evaluate(async (tags) => {
    const axe = (window as unknown as { axe: AxeInPage }).axe;
    const results = await axe.run(document, { runOnly: { type: 'tag', values: tags }, resultTypes: ['violations'] });
    return results.violations.map(
      (v) =>
        `${v.id} (${v.impact ?? 'n/a'}): ${v.help}\n${v.nodes.map((n) => `    ${n.target.join(' ')}: ${n.failureSummary ?? ''}`).join('\n')}`,
    );
  }, WCAG_TAGS);
  expect(found, `axe violations on '${screen}' (${page.url()})`).toEqual([]);
}

/**
 * Checks the screen with axe (`expectAccessible`) and for what axe cannot see (`expectBeyondAxe`: focus,
 * 320 px reflow, text spacing, forced colours), and saves a full-page screenshot under
 * tests/artifacts/screens (kept as a CI artifact). `axe: false` only for pages the portal does not own (the
 * Temporal Web UI).
 */
export async function shot(page: Page, name: string, { axe = true }: { axe?: boolean } = {}): Promise<void> {
  // Transitions end first (`settled`, also inside expectAccessible): the picture shows what a person sees.
  if (axe) {
    await expectAccessible(page, name);
    await expectBeyondAxe(page, name);
  } else await settled(page);
  await page.screenshot({ path: path.join(SHOTS, `${name}.png`), fullPage: true });
}

export function account(username: string) {
  const found = DEMO_ACCOUNTS.find((a) => a.username === username);
  if (!found) throw new Error(`no demo account ${username}`);
  return found;
}

/** Signs in through the sign-in page (000 §2) and waits for the dashboard: for journeys that test signing in. */
export async function signInThroughForm(page: Page, username: string): Promise<void> {
  await page.goto('/');
  await page.getByLabel('Username or Email Address').fill(username);
  await page.getByLabel('Password', { exact: true }).fill(account(username).password);
  await clickAndExpectUrl(page, page.getByRole('button', { name: 'Sign In', exact: true }), /\/app\/dashboard/);
}

/**
 * Clicks `button` and waits for the page to reach `url`. When it does not, the failure says why: what the page
 * shows in its alerts and status lines, and the API's answers to the calls made since the click (status and
 * the start of the body), so a run on another machine tells a refusal from a hang.
 */
export async function clickAndExpectUrl(page: Page, button: Locator, url: RegExp): Promise<void> {
  const answers: string[] = [];
  const onResponse = (r: PageResponse) => {
    const at = new URL(r.url());
    if (!at.pathname.startsWith('/rest/')) return;
    void r
      .text()
      .catch(() => '')
      .then((body) => answers.push(`${r.request().method()} ${at.pathname} ${r.status()} ${body.slice(0, 300)}`));
  };
  const onFailed = (r: PageRequest) => {
    const at = new URL(r.url());
    if (at.pathname.startsWith('/rest/'))
      answers.push(`${r.method()} ${at.pathname} failed: ${r.failure()?.errorText}`);
  };
  page.on('response', onResponse);
  page.on('requestfailed', onFailed);
  try {
    await button.click();
    await expect(page).toHaveURL(url);
  } catch (err) {
    const shown = await page
      .locator('[role=alert], [role=status], .mantine-InputWrapper-error')
      .allInnerTexts()
      .catch(() => []);
    const why = `still at ${page.url()}; the page shows ${JSON.stringify(shown)}; the API answered ${JSON.stringify(answers)}`;
    throw new Error(`${(err as Error).message}\n${why}`, { cause: err });
  } finally {
    page.off('response', onResponse);
    page.off('requestfailed', onFailed);
  }
}

/** A session made by POST /rest/token/create: the pg_session cookie's value and what the browser keeps of it. */
interface ApiSession {
  cookie: string;
  xsrfToken: string;
  tokenTimeoutInSeconds: number;
  passwordExpiryState: PasswordExpiryState | null;
}

/**
 * One session per demo persona and portal address in this worker, made once and handed to every journey
 * that signs the persona in. A session is a database row that signing out (or inactivity) ends, so each
 * hand-out first asks the API whether it is still live and makes a new one when it is not.
 */
const personaSessions = new Map<string, ApiSession>();

async function createApiSession(baseUrl: string, username: string, password: string): Promise<ApiSession> {
  const res = await fetch(new URL('/rest/token/create', baseUrl), {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json' },
    body: JSON.stringify({ username, password }),
  });
  const body = (await res.json().catch(() => ({}))) as Partial<TokenCreateResponse>;
  const cookie = res.headers
    .getSetCookie()
    .map((c) => c.split(';', 1)[0]!)
    .find((c) => c.startsWith(`${CONSTANTS.sessionCookie}=`));
  if (res.status !== 200 || !cookie || !body.xsrfToken) {
    throw new Error(`signing ${username} in through the API answered ${res.status}: ${JSON.stringify(body)}`);
  }
  return {
    cookie: cookie.slice(CONSTANTS.sessionCookie.length + 1),
    xsrfToken: body.xsrfToken,
    tokenTimeoutInSeconds: body.tokenTimeoutInSeconds ?? CONSTANTS.defaultTokenTimeoutSeconds,
    passwordExpiryState: expiryStateOf(body.expiryState, body.passwordExpiresSoon),
  };
}

/** Whether the session is still live (GET /rest/secure/token/refresh, which also slides its expiry). */
async function isLive(baseUrl: string, session: ApiSession): Promise<boolean> {
  const res = await fetch(new URL('/rest/secure/token/refresh', baseUrl), {
    headers: {
      accept: 'application/json',
      cookie: `${CONSTANTS.sessionCookie}=${session.cookie}`,
      [CONSTANTS.xsrfHeader]: session.xsrfToken,
    },
  });
  await res.body?.cancel();
  return res.status === 200;
}

/**
 * Opens a small response of the portal's origin (the page's base URL) without loading the web app, which
 * would start signed out, and returns that origin: local storage and the cookie belong to it.
 */
async function openPortalOrigin(page: Page): Promise<string> {
  await page.goto('/rest/public/health');
  return new URL(page.url()).origin;
}

/**
 * Puts the session into the page's browser as the sign-in page would leave it (000 §3 Authentication
 * state): the httpOnly pg_session cookie, and the XSRF token and the auth state in local storage, which the
 * web app reads on its next load (web/src/lib/apiClient.ts, authState.ts). Then opens the dashboard.
 */
async function openWithSession(page: Page, origin: string, username: string, session: ApiSession): Promise<void> {
  await page
    .context()
    .addCookies([
      { name: CONSTANTS.sessionCookie, value: session.cookie, url: origin, httpOnly: true, sameSite: 'Strict' },
    ]);
  await page.evaluate(
    ({ xsrf, auth }) => {
      localStorage.setItem('xsrfToken', xsrf);
      localStorage.setItem('authState', JSON.stringify(auth));
    },
    {
      xsrf: session.xsrfToken,
      auth: {
        tokenTimeoutInSeconds: session.tokenTimeoutInSeconds,
        lastSeen: Date.now(),
        passwordExpiryState: session.passwordExpiryState,
        username,
      },
    },
  );
  await page.goto('/app/dashboard');
  await expect(page).toHaveURL(/\/app\/dashboard/);
}

/**
 * Signs the demo persona in and waits for the dashboard. The persona's session is made once per worker
 * through the API (POST /rest/token/create) and reused while it lives, instead of filling the sign-in form
 * in every journey; the form itself is tested by the journeys that use `signInThroughForm` / `submitSignIn`.
 */
export async function signIn(page: Page, username: string): Promise<void> {
  const origin = await openPortalOrigin(page);
  const key = `${origin} ${username}`;
  let session = personaSessions.get(key);
  if (!session || !(await isLive(origin, session))) {
    session = await createApiSession(origin, username, account(username).password);
    personaSessions.set(key, session);
  }
  await openWithSession(page, origin, username, session);
}

/**
 * Signs a user made for one journey in with a session of its own (through the API, as `signIn` does) and
 * waits for the dashboard.
 */
export async function signInWith(page: Page, user: { username: string; password: string }): Promise<void> {
  const origin = await openPortalOrigin(page);
  await openWithSession(page, origin, user.username, await createApiSession(origin, user.username, user.password));
}

/** Signs out through /app/signout and waits for the sign-in page. */
export async function signOut(page: Page): Promise<void> {
  await page.goto('/app/signout');
  await expect(page.getByRole('button', { name: 'Sign In', exact: true })).toBeVisible();
}

/**
 * Opens a Mantine Select / MultiSelect and clicks the option named `option` (or the first one). A dropdown
 * closed just before (Escape) may still be leaving when the field is clicked again: an option seen then is
 * hidden by the time of the click, and a click on it waits for ever. So the open, the look and the click are
 * retried together, from a closed list, within one deadline.
 */
export async function pick(page: Page, input: Locator, option?: string): Promise<string> {
  const choice = option ? page.getByRole('option', { name: option, exact: true }) : page.getByRole('option').first();
  let text = '';
  await expect(async () => {
    if (!(await choice.isVisible())) await input.click();
    await expect(choice).toBeVisible({ timeout: 3_000 });
    text = (await choice.textContent())?.trim() ?? '';
    await choice.click({ timeout: 3_000 });
  }).toPass({ timeout: 30_000 });
  await page.keyboard.press('Escape');
  return text;
}

/** Fills and submits the sign-in form without waiting for a page (000 §2 Sign-in screen). */
export async function submitSignIn(page: Page, username: string, password = account(username).password): Promise<void> {
  await page.goto('/');
  await page.getByLabel('Username or Email Address').fill(username);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign In', exact: true }).click();
}

/**
 * Waits (15 s) for the dashboard after a sign-in. A sign-in that stays on the sign-in page fails with what the
 * page says (the refusal, a field error or the sign-out message), so a failure in CI names its cause.
 */
export async function expectSignedIn(page: Page): Promise<void> {
  try {
    await expect(page).toHaveURL(/\/app\/dashboard/);
  } catch (err) {
    const said = await page
      .locator('form')
      .first()
      .innerText({ timeout: 1_000 })
      .catch(() => '(no form)');
    throw new Error(`${(err as Error).message}\nThe page at ${page.url()} says: ${said.replace(/\s+/g, ' ')}`, {
      cause: err,
    });
  }
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

export type { ExtraApi } from '../support/extra-api';

/**
 * Starts a second API process (serving the built web app) on the stack's services with `overrides`, e.g.
 * SESSION_TIMEOUT_SECONDS, for journeys that need settings of their own. Its log (warnings and errors) goes
 * beside the report, to tell why a journey on it failed.
 */
export const startExtraApi = (overrides: Record<string, string>): Promise<ExtraApi> =>
  startApiProcess({
    portalEnv: JSON.parse(process.env.E2E_PORTAL_ENV ?? '{}') as Record<string, string>,
    hostname: new URL(process.env.PORTAL_URL!).hostname,
    overrides,
    logFile: (port) => path.join(REPO, 'tests', 'artifacts', `extra-api-${port}.log`),
  });

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
