/**
 * An e-learning package's scripts run in the viewer's browser (issue 23 "Uploads are hostile input"): served
 * from the e-learning origin (the API's second listener, `ELEARNING_ORIGIN`), a package's script can neither
 * read the portal's storage (the XSRF token lives in the portal's localStorage) nor make an authenticated
 * /rest/secure call as the viewer: a call with credentials and the XSRF header is stopped by CORS, and one the
 * browser sends without asking (no-cors, a sign-out attempt) carries no XSRF token and changes nothing.
 *
 * The hostile package is uploaded here through the API as the administrator; the viewer is the demo 'user'
 * (Network User), who opens it from the dashboard's signed address in the signed-in browser.
 */
import { expect, test } from '@playwright/test';
import { ZipFile } from 'yazl';
import { DASHBOARD_RESOURCE_PATHS as PATHS, type DashboardItem } from '@portal/contract';
import { account, signIn } from './support';

/** The package's script: tries the portal's storage and API, and writes what it got into the page. */
const probe = (portal: string) => `
(async function () {
  var result = { storage: null, storageError: null, secureCall: null, signOut: null };
  try {
    result.storage = { xsrfToken: localStorage.getItem('xsrfToken'), keys: Object.keys(localStorage) };
  } catch (e) {
    result.storageError = String(e && e.name);
  }
  try {
    var res = await fetch(${JSON.stringify(portal)} + '/rest/secure/user_profile', {
      credentials: 'include',
      headers: { 'x-xsrf-token': (result.storage && result.storage.xsrfToken) || 'guess' },
    });
    result.secureCall = 'answered ' + res.status + ': ' + (await res.text()).slice(0, 200);
  } catch (e) {
    result.secureCall = 'blocked: ' + String(e && e.name);
  }
  try {
    await fetch(${JSON.stringify(portal)} + '/rest/secure/token/invalidate', {
      method: 'POST', mode: 'no-cors', credentials: 'include',
    });
    result.signOut = 'sent';
  } catch (e) {
    result.signOut = 'blocked: ' + String(e && e.name);
  }
  document.getElementById('result').textContent = JSON.stringify(result);
})();
`;

function packageOf(files: Record<string, string>): Promise<Buffer> {
  const zip = new ZipFile();
  for (const [name, body] of Object.entries(files)) zip.addBuffer(Buffer.from(body), name);
  zip.end();
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    zip.outputStream.on('data', (c: Buffer) => chunks.push(c));
    zip.outputStream.on('end', () => resolve(Buffer.concat(chunks)));
    zip.outputStream.on('error', reject);
  });
}

test('an e-learning package can neither read the portal’s storage nor call its API as the viewer', async ({
  page,
  request,
}) => {
  const portal = new URL(process.env.PORTAL_URL!).origin;
  // The administrator uploads the hostile package for the Network User role.
  const signedIn = await request.post('/rest/token/create', {
    data: { username: 'admin', password: account('admin').password },
  });
  const xsrf = ((await signedIn.json()) as { xsrfToken: string }).xsrfToken;
  const headers = { 'x-xsrf-token': xsrf };
  const roles = (await (
    await request.get('/rest/secure/system_mgmt/portal_roles/getAll?includeBasic=true', { headers })
  ).json()) as {
    id: number;
    description: string;
  }[];
  const categories = (await (await request.get(PATHS.categories, { headers })).json()) as {
    id: number;
    name: string;
  }[];
  const zip = await packageOf({
    'story.html':
      '<!doctype html><html lang="en"><title>Probe</title><p id="result">running</p><script src="probe.js"></script></html>',
    'probe.js': probe(portal),
  });
  const saved = await request.post(PATHS.items, {
    headers,
    multipart: {
      item: JSON.stringify({
        kind: 'ELEARNING',
        title: `Isolation probe ${Date.now()}`,
        categoryId: categories.find((c) => c.name === 'eLearnings')!.id,
        portalRoleIds: [roles.find((r) => r.description === 'Network User')!.id],
      }),
      file: { name: 'probe.zip', mimeType: 'application/zip', buffer: zip },
    },
  });
  expect(saved.status(), await saved.text()).toBe(200);
  const item = (await saved.json()) as DashboardItem;
  const elearning = new URL(item.openUrl);
  expect(elearning.origin).not.toBe(portal);

  // The viewer signs in: the portal's origin holds the XSRF token.
  await signIn(page, 'user');
  const token = await page.evaluate(() => localStorage.getItem('xsrfToken'));
  expect(token).toBeTruthy();

  // The package, opened from its signed address in the same browser.
  const course = await page.context().newPage();
  await course.goto(item.openUrl);
  await expect(course.locator('#result')).not.toHaveText('running');
  const result = JSON.parse((await course.locator('#result').textContent())!) as {
    storage: { xsrfToken: string | null; keys: string[] } | null;
    storageError: string | null;
    secureCall: string;
    signOut: string;
  };
  // Its storage is its own origin's: nothing of the portal's.
  expect(result.storage?.xsrfToken ?? null).toBeNull();
  expect(result.storage?.keys ?? []).not.toContain('xsrfToken');
  expect(result.secureCall).toMatch(/^blocked: TypeError|^answered (401|403)/);
  expect(result.secureCall).not.toContain('Jordan');

  // The no-cors sign-out attempt changed nothing: the viewer's session still works in the portal.
  await page.reload();
  const still = await page.evaluate(async (xsrfToken) => {
    const res = await fetch('/rest/secure/user_profile', { headers: { 'x-xsrf-token': xsrfToken ?? '' } });
    return res.status;
  }, token);
  expect(still).toBe(200);
  await expect(page).toHaveURL(/\/app\/dashboard/);
});
