/**
 * Issue 22, "The systems are the clients": an administrator registers a system's single sign-on client in
 * Configure → Systems (001 §2.12), sees its secret once (with the warning and a copy button), rotates it after
 * a confirmation, finds both changes in the audit trail, and the section is checked with axe at desktop and
 * phone size.
 */
import { expect, test, type Page } from '@playwright/test';
import { shot, signIn } from './support';

const stamp = Date.now().toString(36);
const SECRET = /^[A-Za-z0-9_-]{43}$/;

/** Creates a system through Configure and opens its page; answers the page's path. */
async function createSystem(page: Page, systemName: string): Promise<string> {
  await page.goto('/app/configure/?tab=systems');
  await page.getByRole('link', { name: 'Create New System' }).click();
  await page.getByRole('textbox', { name: 'System Name' }).fill(systemName);
  await page.getByRole('button', { name: 'Create System' }).click();
  await expect(page).toHaveURL(/tab=systems$/);
  await page.getByRole('textbox', { name: 'Filter systems' }).fill(systemName);
  await page.getByRole('link', { name: systemName, exact: true }).click();
  await expect(page.getByRole('heading', { name: 'Edit System', level: 1 })).toBeVisible();
  return new URL(page.url()).pathname;
}

/** The secret in the once-only dialog, after checking its warning; closes the dialog. */
async function readSecretOnce(page: Page, clientId: string, shotName: string): Promise<string> {
  const dialog = page.getByRole('dialog', { name: 'Client secret' });
  await expect(dialog.getByText('Copy the client secret now: it will not be shown again.')).toBeVisible();
  await expect(dialog.getByRole('button', { name: 'Copy Secret' })).toBeVisible();
  const secret = await dialog.getByRole('textbox', { name: `Client secret of ${clientId}` }).inputValue();
  expect(secret).toMatch(SECRET);
  await shot(page, shotName);
  await dialog.getByRole('button', { name: 'Done' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByText(secret)).toHaveCount(0);
  return secret;
}

test('an administrator registers a system as a single sign-on client, sees the secret once and rotates it', async ({
  page,
}) => {
  const systemName = `E2E EDC ${stamp}`;
  const clientId = `e2e-edc-${stamp}`;
  await signIn(page, 'admin');
  const systemPath = await createSystem(page, systemName);
  const section = page.getByRole('region', { name: 'Single sign-on' });

  let first = '';
  await test.step('register: the URI rules, then the secret shown once', async () => {
    await expect(section.getByText('Single sign-on is not set up for this system.')).toBeVisible();
    await shot(page, '70-sso-not-set-up');
    await section.getByRole('button', { name: 'Set Up Single Sign-On' }).click();
    await section.getByRole('textbox', { name: 'Client ID' }).fill(clientId);
    await section.getByRole('textbox', { name: 'Redirect URI 1' }).fill('http://edc.example.org/callback#top');
    await section.getByRole('button', { name: 'Register Client' }).click();
    await expect(section.getByText('Redirect URI 1 is invalid')).toBeVisible();
    await section.getByRole('textbox', { name: 'Redirect URI 1' }).fill('http://edc.example.org/callback');
    await section.getByRole('button', { name: 'Register Client' }).click();
    await expect(section.getByText('Redirect URI 1 must have a valid protocol')).toBeVisible();
    await shot(page, '71-sso-uri-rules');
    await section.getByRole('textbox', { name: 'Redirect URI 1' }).fill('https://edc.example.org/callback');
    await section.getByRole('button', { name: 'Add Redirect URI' }).click();
    await section.getByRole('textbox', { name: 'Redirect URI 2' }).fill('http://localhost:4000/callback');
    await section.getByRole('button', { name: 'Add Post-logout redirect URI' }).click();
    await section.getByRole('textbox', { name: 'Post-logout redirect URI 1' }).fill('https://edc.example.org/');
    await section.getByRole('textbox', { name: 'Initiate-login URI (optional)' }).fill('https://edc.example.org/login');
    // Keyboard: the submit button is reached and pressed without the mouse.
    await section.getByRole('button', { name: 'Register Client' }).focus();
    await page.keyboard.press('Enter');
    await expect(page.getByText(`Single sign-on client ${clientId} saved`).first()).toBeVisible();
    first = await readSecretOnce(page, clientId, '72-sso-secret-once');
    await expect(section.getByText('Client secret: on record (never shown again)')).toBeVisible();
    await shot(page, '73-sso-client');
  });

  await test.step('the secret is never shown again, also after a reload', async () => {
    await page.reload();
    await expect(section.getByRole('textbox', { name: 'Client ID' })).toHaveValue(clientId);
    await expect(section.getByRole('textbox', { name: 'Redirect URI 2' })).toHaveValue(
      'http://localhost:4000/callback',
    );
    expect(await page.content()).not.toContain(first);
  });

  await test.step('rotate after a confirmation: a new secret, once', async () => {
    await section.getByRole('button', { name: 'Rotate Secret' }).click();
    const confirm = page.getByRole('dialog', { name: 'Rotate client secret?' });
    await expect(confirm).toBeVisible();
    await shot(page, '74-sso-rotate-confirm');
    await confirm.getByRole('button', { name: 'Rotate Secret' }).click();
    const second = await readSecretOnce(page, clientId, '75-sso-secret-rotated');
    expect(second).not.toBe(first);
  });

  await test.step('both changes are in the audit trail', async () => {
    const systemId = /\/(\d+)$/.exec(systemPath)![1];
    await page.goto(`/app/audit-trail?entityType=SsoClient&entityId=${systemId}`);
    const table = page.getByRole('table', { name: 'Audit trail' });
    await expect(table.getByRole('row')).toHaveCount(3);
    await expect(table.getByRole('row').nth(1)).toContainText('Secret rotated');
    await expect(table.getByRole('row').nth(2)).toContainText('Created');
    await expect(table).not.toContainText(first);
    await shot(page, '76-sso-audit');
  });
});

test.describe('at phone size', () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test('the single sign-on section and its secret dialog', async ({ page }) => {
    const clientId = `e2e-phone-${stamp}`;
    await signIn(page, 'admin');
    await createSystem(page, `E2E Phone EDC ${stamp}`);
    const section = page.getByRole('region', { name: 'Single sign-on' });
    await section.getByRole('button', { name: 'Set Up Single Sign-On' }).click();
    await shot(page, 'phone-70-sso-set-up');
    await section.getByRole('textbox', { name: 'Client ID' }).fill(clientId);
    await section.getByRole('textbox', { name: 'Redirect URI 1' }).fill('https://phone.example.org/callback');
    await section.getByRole('button', { name: 'Register Client' }).click();
    await readSecretOnce(page, clientId, 'phone-71-sso-secret-once');
    await shot(page, 'phone-72-sso-client');
  });
});
