/**
 * Review Access Change Request (001 §2.8, §4) and the administrator's Access tab (000 §2): a user files a CHANGE
 * request; the reviewer meets the immediate-effect warning and the original access beside the requested one,
 * tries to finalize before applying (the confirmation warns that the requested access was never applied),
 * applies it with 'Apply Above Changes', gives a portal role, approves with the confirmation and sees the
 * request locked; the user's access and roles changed with that save. Then an administrator edits the user's
 * access on the Access tab ('Add new role', 'Remove role', 'Unsaved Changes', 'Save Changes'). Axe on each screen.
 */
import { expect, test } from '@playwright/test';
import { journeyPrisma, makeJourneyUser } from '../support/journey-users';
import { pick, shot, signIn, signInWith, signOut } from './support';

test('a reviewer applies the requested access, edits portal roles and finalizes; an admin edits the Access tab', async ({
  page,
}) => {
  const prisma = journeyPrisma();
  const relation = await prisma.siteRelation.findFirstOrThrow({
    where: { laoCode: 'MA036', NOT: { siteCode: 'MA036' } },
    orderBy: { id: 'asc' },
  });
  const me = await makeJourneyUser(prisma, 'review', [
    { roleName: 'Research Pharmacist', siteCodes: [relation.siteCode] },
    { roleName: 'Safety Reviewer' },
  ]);
  const comment = `Review journey ${me.username}: add the MA036 LAO`;

  await test.step('the user asks to change their Research Pharmacist access', async () => {
    await signInWith(page, me);
    await page.goto('/app/profile?tab=access');
    await page.getByRole('link', { name: 'Research Pharmacist', exact: true }).click();
    await expect(page.getByRole('heading', { name: 'Request Modified Access', level: 1 })).toBeVisible();
    await pick(page, page.getByRole('combobox', { name: /^LAOs/ }), undefined);
    await page.getByLabel(/^Comments/).fill(comment);
    await page.getByRole('button', { name: 'Submit Request' }).click();
    await expect(page).toHaveURL(/tab=history/);
    await signOut(page);
  });
  const request = await prisma.accessModRequest.findFirstOrThrow({
    where: { subjectUserId: me.id },
    orderBy: { id: 'desc' },
  });
  const requested = (request.accessControls as Array<{ laoIds: string[] }>)[0]!.laoIds;
  expect(requested).toHaveLength(1);

  await test.step('the reviewer sees the request, the original access and the current access', async () => {
    await signIn(page, 'reviewer');
    await page.goto(`/app/user-requests/access-change/${request.id}`);
    await expect(page.getByRole('heading', { level: 1, name: 'Review Access Change Request' })).toBeVisible();
    await expect(page.getByText(comment)).toBeVisible();
    await expect(page.getByText(/take effect immediately on saving, regardless of the request status/)).toBeVisible();
    const original = page.getByRole('region', { name: 'Original Access' });
    await expect(original).toContainText('Research Pharmacist');
    await expect(original).toContainText(relation.siteCode);
    const current = page.getByRole('region', { name: /^Current Access of/ });
    await expect(current.getByRole('group', { name: /^Role #/ })).toHaveCount(2);
    await shot(page, '60-review-access-change');
  });

  await test.step('finalizing before applying warns that the requested access was never applied', async () => {
    await pick(page, page.getByRole('combobox', { name: 'Request Status' }), 'Approved');
    await page.getByRole('button', { name: 'Save Changes' }).click();
    const confirm = page.getByRole('dialog', { name: 'Confirm Request Finalization/Closure' });
    await expect(confirm.getByText('Requested access not applied')).toBeVisible();
    await shot(page, '61-review-confirm-not-applied');
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await expect(confirm).toHaveCount(0);
  });

  await test.step('Apply Above Changes, a portal role, approve with the confirmation', async () => {
    await page.getByRole('button', { name: 'Apply Above Changes' }).click();
    const pharmacist = page.getByRole('region', { name: /^Current Access of/ }).getByRole('group', { name: 'Role #1' });
    await expect(pharmacist.getByRole('combobox', { name: 'Study Role' })).toHaveValue('Research Pharmacist');
    await expect(pharmacist).toContainText(requested[0]!);
    await page.getByRole('checkbox', { name: /Password Self-Service/ }).check();
    await page.getByLabel(/^Reviewer Comments/).fill('Applied as asked.');
    await page.getByLabel(/^External Ticket #/).fill('SR-REV-1');
    await shot(page, '62-review-applied');
    await page.getByRole('button', { name: 'Save Changes' }).click();
    const confirm = page.getByRole('dialog', { name: 'Confirm Request Finalization/Closure' });
    await expect(confirm).toBeVisible();
    await expect(confirm.getByText('Requested access not applied')).toHaveCount(0);
    await confirm.getByRole('button', { name: 'OK' }).click();
    await expect(page.getByText('User Access Modification Request Updated').first()).toBeVisible();
    await expect(page).toHaveURL(/\/app\/user-requests$/, { timeout: 5_000 });
  });

  await test.step('the saved request is locked; the access and the role were written with it', async () => {
    await page.goto(`/app/user-requests/access-change/${request.id}`);
    await expect(page.getByText(/This request is resolved \(Approved\)/)).toBeVisible();
    await expect(page.getByRole('button', { name: 'Save Changes' })).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'Apply Above Changes' })).toHaveCount(0);
    await shot(page, '63-review-locked');
    const held = await prisma.userAccess.findFirstOrThrow({
      where: { portalUserId: me.id, roleName: 'Research Pharmacist', inactive: false },
    });
    expect(held).toMatchObject({ laoIds: requested, versionno: 2, sourceRequestId: request.id });
    const roles = await prisma.portalUserRole.findMany({ where: { portalUserId: me.id }, include: { role: true } });
    expect(roles.map((r) => r.role.description).sort()).toEqual(['Network User', 'Password Self-Service']);
    await signOut(page);
  });

  await test.step("an administrator edits the user's access on the Access tab", async () => {
    await signIn(page, 'admin');
    await page.goto(`/app/users/${me.id}?tab=access`);
    await expect(page.getByRole('heading', { level: 1, name: /^Edit User/ })).toBeVisible();
    await expect(page.getByRole('group', { name: /^Role #/ })).toHaveCount(2);
    await shot(page, '64-user-access-tab');
    // Remove Safety Reviewer, add Data Manager with a study.
    const safety = page.getByRole('group', { name: 'Role #2' });
    await expect(safety.getByRole('combobox', { name: 'Study Role' })).toHaveValue('Safety Reviewer');
    await safety.getByRole('button', { name: 'Remove role' }).click();
    await page.getByRole('button', { name: 'Add new role' }).click();
    const added = page.getByRole('group', { name: 'Role #2' });
    await pick(page, added.getByRole('combobox', { name: 'Study Role' }), 'Data Manager');
    await pick(page, added.getByRole('combobox', { name: /^Studies/ }));
    // Leaving with edits asks first.
    await page.getByRole('link', { name: /Back to/ }).click();
    const unsaved = page.getByRole('dialog', { name: 'Unsaved Changes' });
    await expect(unsaved).toBeVisible();
    await unsaved.getByRole('button', { name: 'Go Back' }).click();
    await shot(page, '65-user-access-edited');
    await page.getByRole('button', { name: 'Save Changes' }).click();
    await expect(page.getByText("User's Access Updated").first()).toBeVisible();
    await expect(page).toHaveURL(/\/app\/users(\?|$)/, { timeout: 5_000 });
    const active = await prisma.userAccess.findMany({ where: { portalUserId: me.id, inactive: false } });
    expect(active.map((a) => a.roleName).sort()).toEqual(['Data Manager', 'Research Pharmacist']);
    await signOut(page);
  });
  await prisma.$disconnect();
});
