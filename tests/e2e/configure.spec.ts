/**
 * The configuration journey of issue 4 (001 §2.12): an administrator creates, edits and deletes
 * (deactivates) a portal role, a system and a study role that uses the system, with the spec's rules shown
 * in the browser, and then finds each change (created, updated, deactivated) in the audit trail.
 */
import { expect, test, type Page } from '@playwright/test';
import { shot, signIn } from './support';

const stamp = Date.now().toString(36);

/** A success notification (several may be on screen at once). */
const notice = (page: Page, text: string) => expect(page.getByText(text, { exact: true }).first()).toBeVisible();

/** The id at the end of the editor's URL. */
const idFromUrl = (page: Page) => Number(/\/(\d+)$/.exec(new URL(page.url()).pathname)?.[1]);

async function openConfigure(page: Page, tab: 'Portal Roles' | 'Study Roles' | 'Systems') {
  await page.getByRole('link', { name: 'Configure', exact: true }).click();
  await expect(page.getByRole('heading', { name: 'Configure', level: 1 })).toBeVisible();
  await page.getByRole('tab', { name: tab }).click();
}

async function openRow(page: Page, filterLabel: string, name: string) {
  const list = page.url();
  await page.getByRole('textbox', { name: filterLabel }).fill(name);
  // The filter applies after its 500 ms debounce and re-renders the rows: click the row it leaves (the name is
  // the journey's own), so the click does not land on a row being replaced.
  await expect(page.getByText('1 of 1 records shown')).toBeVisible();
  await page.getByRole('link', { name, exact: true }).click();
  await expect(page).not.toHaveURL(list);
}

/** Opens the record's audit trail from its editor and checks the actions, newest first. */
async function expectAudit(page: Page, editorUrl: string, actions: string[], shotName: string) {
  await page.goto(editorUrl);
  await page.getByRole('link', { name: 'View changes in the Audit Trail' }).click();
  await expect(page.getByRole('heading', { name: 'Audit Trail', level: 1 })).toBeVisible();
  const table = page.getByRole('table', { name: 'Audit trail' });
  await expect(table.getByRole('row')).toHaveCount(actions.length + 1);
  for (const [i, action] of actions.entries()) {
    await expect(table.getByRole('row').nth(i + 1)).toContainText(action);
    await expect(table.getByRole('row').nth(i + 1)).toContainText('admin');
  }
  await shot(page, shotName);
}

test('an administrator configures a portal role, a system and a study role, and finds every change audited', async ({
  page,
}) => {
  const roleName = `E2E Monitor ${stamp}`;
  const systemName = `E2E Imaging ${stamp}`;
  const studyRoleName = `E2E Imaging Reader ${stamp}`;
  let portalRoleUrl = '';
  let systemUrl = '';
  let studyRoleUrl = '';

  await test.step('portal role: create (with the required-field rules), edit, delete', async () => {
    await signIn(page, 'admin');
    await openConfigure(page, 'Portal Roles');
    await shot(page, '20-configure-portal-roles');
    await page.getByRole('link', { name: 'Create Portal Role' }).click();
    await expect(page.getByRole('heading', { name: 'Add Portal Role' })).toBeVisible();
    await page.getByRole('button', { name: 'Create Portal Role' }).click();
    await expect(page.getByText('Role Name is required')).toBeVisible();
    await expect(page.getByText('You must select a permission')).toBeVisible();
    await page.getByRole('textbox', { name: 'Role Name' }).fill(roleName);
    await notice(page, `${roleName.length} / 64 characters`);
    await page.getByRole('radio', { name: 'READ_USERS' }).check();
    await shot(page, '21-add-portal-role');
    await page.getByRole('button', { name: 'Create Portal Role' }).click();
    await notice(page, `${roleName} created`);
    await expect(page).toHaveURL(/\/app\/configure\/\?tab=portalRoles$/);

    await openRow(page, 'Filter portal roles', roleName);
    await expect(page.getByRole('heading', { name: 'Edit Portal Role' })).toBeVisible();
    portalRoleUrl = new URL(page.url()).pathname;
    expect(idFromUrl(page)).toBeGreaterThan(0);
    await page.getByRole('button', { name: 'Save Portal Role' }).click();
    await expect(page.getByText('There are no changes to submit.')).toBeVisible();
    await page.getByRole('radio', { name: 'WRITE_USERS' }).check();
    await page.getByRole('button', { name: 'Save Portal Role' }).click();
    await notice(page, `${roleName} updated`);
    await expect(page.getByRole('row').filter({ hasText: roleName })).toContainText('WRITE_USERS');

    await page.goto(portalRoleUrl);
    await page.getByRole('button', { name: 'Delete Portal Role' }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete Portal Role?' });
    await expect(dialog.getByText('No active references were found.')).toBeVisible();
    await shot(page, '22-delete-portal-role');
    await dialog.getByRole('button', { name: 'Delete Portal Role' }).click();
    await notice(page, 'Deleted');
    await page.getByRole('textbox', { name: 'Filter portal roles' }).fill(roleName);
    await expect(page.getByText('No records found')).toBeVisible();
  });

  await test.step('system: create, edit', async () => {
    await openConfigure(page, 'Systems');
    await page.getByRole('link', { name: 'Create New System' }).click();
    await expect(page.getByRole('heading', { name: 'Add System' })).toBeVisible();
    await page.getByRole('textbox', { name: 'System Name' }).fill('Portal Gateway');
    await page.getByRole('button', { name: 'Create System' }).click();
    await expect(page.getByText('There is already an active system with this name.')).toBeVisible();
    await expect(page.getByText('Unable to create system due to one or more errors.')).toBeVisible();
    await shot(page, '23-add-system-duplicate');
    await page.getByRole('textbox', { name: 'System Name' }).fill(systemName);
    await page.getByRole('textbox', { name: 'Description (optional)' }).fill('Reads trial images.');
    await page.getByRole('button', { name: 'Create System' }).click();
    await notice(page, `Successfully created/updated system ${systemName}`);
    await expect(page).toHaveURL(/tab=systems$/);

    await openRow(page, 'Filter systems', systemName);
    systemUrl = new URL(page.url()).pathname;
    await page.getByRole('textbox', { name: 'Description (optional)' }).fill('Reads and archives trial images.');
    await page.getByRole('button', { name: 'Save System' }).click();
    await notice(page, `Successfully created/updated system ${systemName}`);
    await expect(page.getByRole('row').filter({ hasText: systemName })).toContainText(
      'Reads and archives trial images.',
    );
  });

  await test.step('study role: create with the site rule and the fixed system, edit, delete', async () => {
    await openConfigure(page, 'Study Roles');
    await shot(page, '24-configure-study-roles');
    await page.getByRole('link', { name: 'Create New Study Role' }).click();
    await expect(page.getByRole('heading', { name: 'Add Study Role' })).toBeVisible();
    await expect(page.getByRole('checkbox', { name: 'Portal Gateway' })).toBeChecked();
    await expect(page.getByRole('checkbox', { name: 'Portal Gateway' })).toBeDisabled();
    await page.getByRole('textbox', { name: 'Role Name' }).fill(studyRoleName);
    await page.getByRole('textbox', { name: 'Description' }).fill('Reads images for central review.');
    await page.getByRole('checkbox', { name: 'AOs/LAOs Required' }).check();
    await page.getByRole('checkbox', { name: 'Allow AOs' }).uncheck();
    await page.getByRole('checkbox', { name: 'Allow LAOs' }).uncheck();
    await page.getByRole('checkbox', { name: systemName }).check();
    await page.getByRole('button', { name: 'Create Study Role' }).click();
    await expect(
      page.getByText('You must allow user-selection of AOs or LAOs in order to require that the user provide them'),
    ).toBeVisible();
    await shot(page, '25-add-study-role-rule');
    await page.getByRole('checkbox', { name: 'Allow LAOs' }).check();
    await page.getByRole('button', { name: 'Create Study Role' }).click();
    await notice(page, `${studyRoleName} created`);
    await expect(page).toHaveURL(/tab=studyRoles$/);
    await expect(page.getByRole('row').filter({ hasText: studyRoleName })).toContainText(
      `Portal Gateway, ${systemName}`,
    );

    await openRow(page, 'Filter study roles', studyRoleName);
    studyRoleUrl = new URL(page.url()).pathname;
    await page.getByRole('textbox', { name: 'Description' }).fill('Reads images for central and local review.');
    await page.getByRole('button', { name: 'Save Study Role' }).click();
    await notice(page, `${studyRoleName} updated`);

    await page.goto(studyRoleUrl);
    await page.getByRole('button', { name: 'Delete Study Role' }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete Study Role?' });
    await expect(dialog.getByText('No active references were found.')).toBeVisible();
    await dialog.getByRole('button', { name: 'Delete Study Role' }).click();
    await notice(page, 'Deleted');
  });

  await test.step('system: delete once no active study role uses it', async () => {
    await page.goto(systemUrl);
    await page.getByRole('button', { name: 'Delete System' }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete System?' });
    await expect(dialog.getByText('1 inactive study role references this system.')).toBeVisible();
    await expect(dialog.getByText(studyRoleName)).toBeVisible();
    await shot(page, '26-delete-system');
    await dialog.getByRole('button', { name: 'Delete System' }).click();
    await notice(page, 'Deleted');
    await page.getByRole('switch', { name: 'Show inactive (deleted)' }).check();
    await page.getByRole('textbox', { name: 'Filter systems' }).fill(systemName);
    await expect(page.getByRole('row').filter({ hasText: systemName })).toContainText('Inactive');
  });

  await test.step('every change is in the audit trail', async () => {
    await expectAudit(page, portalRoleUrl, ['Deactivated', 'Updated', 'Created'], '27-audit-portal-role');
    const updated = page.getByRole('row').filter({ hasText: 'Updated' });
    // The screens' labels, never the stored field names (issue 9).
    await expect(updated).toContainText('Permissions');
    await expect(updated).not.toContainText('versionno');
    await updated.getByRole('button', { name: /^Before \/ after:/ }).click();
    const details = page.getByRole('dialog');
    await expect(details.getByRole('row').filter({ hasText: 'Permissions' })).toContainText('READ_USERS');
    await expect(details.getByRole('row').filter({ hasText: 'Permissions' })).toContainText('WRITE_USERS');
    await shot(page, '28-audit-before-after');
    await page.keyboard.press('Escape');
    await expectAudit(page, studyRoleUrl, ['Deactivated', 'Updated', 'Created'], '29-audit-study-role');
    await expectAudit(page, systemUrl, ['Deactivated', 'Updated', 'Created'], '30-audit-system');
  });
});
