/**
 * Electronic signatures in the browser (docs/decisions.md "Electronic signatures"; 21 CFR Part 11 §11.50,
 * §11.70, §11.200), on a second API of the stack's services with SIGNATURES=on (the stack's own API keeps the
 * spec's screens): a person files a request; the reviewer approves it with the requested access applied, and
 * 'Confirm Request Finalization/Closure' asks for the meaning, the username (the session's first signature) and
 * the password: a wrong password is refused with its text and nothing is saved; the right one approves. The
 * signature is shown on the resolved request's review screen, in the person's requests history, on the
 * provenance of the access it granted, and in the access-modification report's columns. A bulk access review
 * decision is signed once; a deactivation is signed with a passkey (Chromium's virtual authenticator) instead
 * of the password. axe at desktop and phone sizes.
 */
import { expect, type Page, test } from '@playwright/test';
import { SIGNATURE_TEXTS as T } from '@portal/contract';
import { journeyEnv, journeyPrisma, makeJourneyUser } from '../support/journey-users';
import { enrolConfirmed } from '../support/totp-codes';
import { addPasskey, virtualAuthenticator } from './passkey-support';
import { type ExtraApi, account, pick, shot, signInThroughForm, signInWith, signOut, startExtraApi } from './support';

let api: ExtraApi;

test.beforeAll(async () => {
  api = await startExtraApi({ SIGNATURES: 'on' });
});
test.afterAll(async () => {
  await api?.stop();
});

/** The manifestation of the reviewer's approval, as §11.50 asks: printed name, username, meaning. */
const manifestOf = (page: Page) =>
  page.getByRole('list', { name: T.legend }).filter({ hasText: /Signed by .+ \(reviewer\) on .+ — Approved/ });

test('a reviewer signs an approval; the signature is shown where the decision is read', async ({ browser }) => {
  test.setTimeout(180_000);
  const context = await browser.newContext({ baseURL: api.url });
  const page = await context.newPage();
  const prisma = journeyPrisma();
  const me = await makeJourneyUser(prisma, 'signer', []).finally(() => prisma.$disconnect());
  const comment = `Signed journey ${Date.now()}`;
  let requestId = 0;

  await test.step('the person files a request for a new study role', async () => {
    await signInWith(page, me);
    await page.goto('/app/profile?tab=access');
    await page.getByRole('link', { name: 'Request New Access' }).click();
    await pick(page, page.getByRole('combobox', { name: 'Study Role' }), 'Data Manager');
    await pick(page, page.getByRole('combobox', { name: /^Studies/ }));
    await page.getByLabel(/^Comments/).fill(comment);
    await page.getByRole('button', { name: 'Submit Request' }).click();
    await expect(page).toHaveURL(/tab=history/);
    await signOut(page);
  });

  await test.step('the reviewer applies the access and approves it; a wrong password signs nothing', async () => {
    await signInThroughForm(page, 'reviewer');
    await page.goto(`/app/user-requests?filter=${encodeURIComponent(me.email)}`);
    await page.getByRole('row').filter({ hasText: me.email }).first().click();
    await expect(page.getByText(comment)).toBeVisible();
    await page.getByRole('button', { name: 'Apply Above Changes' }).click();
    await pick(page, page.getByRole('combobox', { name: 'Request Status' }), 'Approved');
    await page.getByLabel(/^Reviewer Comments/).fill('Approved, signed.');
    await page.getByRole('button', { name: 'Save Changes' }).click();

    const confirm = page.getByRole('dialog', { name: 'Confirm Request Finalization/Closure' });
    await expect(confirm).toBeVisible();
    await expect(confirm.getByRole('combobox', { name: 'Meaning' })).toHaveValue('Approved');
    await expect(confirm.getByText(T.statement)).toBeVisible();
    await confirm.getByRole('textbox', { name: 'Username' }).fill('reviewer');
    await confirm.getByLabel('Password', { exact: true }).fill('Not-the-password-1!');
    await shot(page, 'signature-01-confirm-with-signing');
    await confirm.getByRole('button', { name: 'OK' }).click();
    await expect(confirm.getByText(T.passwordWrong)).toBeVisible();
    await shot(page, 'signature-02-wrong-password');
    const prismaCheck = journeyPrisma();
    const stored = await prismaCheck.accessModRequest
      .findFirstOrThrow({ where: { requesterComments: comment } })
      .finally(() => prismaCheck.$disconnect());
    expect(stored.requestStatus, 'a wrong password saves nothing').toBe('NEW');
    requestId = stored.id;

    await confirm.getByLabel('Password', { exact: true }).fill(account('reviewer').password);
    await confirm.getByRole('button', { name: 'OK' }).click();
    await expect(confirm).toBeHidden();
    await expect(page).toHaveURL(/\/app\/user-requests/);
  });

  await test.step("the resolved request's review screen shows who signed, when and meaning what", async () => {
    // Resolved, it has left the queue's default 'Pending' view: opened by its address.
    await page.goto(`/app/user-requests/access-change/${requestId}`);
    await expect(page.getByText(comment)).toBeVisible();
    await expect(manifestOf(page)).toBeVisible();
    await expect(manifestOf(page).getByText(T.matches)).toBeVisible();
    await shot(page, 'signature-03-review-manifest');
    await page.setViewportSize({ width: 390, height: 844 });
    await shot(page, 'signature-04-review-manifest-phone');
    await page.setViewportSize({ width: 1280, height: 800 });
  });

  await test.step('the provenance of the granted access shows the signed approval', async () => {
    await page.goto(`/app/users/${me.id}?tab=access`);
    await page.getByRole('button', { name: 'History: Data Manager' }).click();
    await expect(manifestOf(page).first()).toBeVisible();
    await shot(page, 'signature-05-provenance');
  });

  await test.step("the access-modification report's last columns name the signature", async () => {
    const xsrf = await page.evaluate(() => localStorage.getItem('xsrfToken'));
    const report = await context.request.get('/rest/secure/user_access_mod_request/report', {
      headers: { 'x-xsrf-token': xsrf! },
    });
    expect(report.status(), await report.text()).toBe(200);
    const lines = (await report.text()).replace(/^\uFEFF/, '').split('\r\n');
    expect(lines[0]).toMatch(/,Signed By,Signed At,Meaning,Signature Valid$/);
    expect(lines.find((l) => l.startsWith(`${requestId},`)) ?? '').toMatch(/,Approved,Yes$/);
    await signOut(page);
  });

  await test.step("the person's requests history shows the signature under the status", async () => {
    await signInWith(page, me);
    await page.goto('/app/profile?tab=history');
    const row = page.getByRole('row').filter({ hasText: comment });
    await expect(row).toContainText('Approved');
    await expect(row.getByRole('list', { name: T.legend })).toContainText('— Approved');
    await shot(page, 'signature-06-history');
    await page.setViewportSize({ width: 390, height: 844 });
    await shot(page, 'signature-07-history-phone');
  });
  await context.close();
});

test('a reviewer signs a bulk access review decision once, naming every item', async ({ browser }) => {
  test.setTimeout(240_000);
  const prisma = journeyPrisma();
  // Two people of NY016 made for this run, the only Research Pharmacists of NY016 whose names share the tag.
  const people = await Promise.all(
    ['sigrvwa', 'sigrvwb'].map((tag) =>
      makeJourneyUser(prisma, tag, [{ roleName: 'Research Pharmacist', laoIds: ['NY016'] }]),
    ),
  ).finally(() => prisma.$disconnect());
  const name = `Signed review ${people[0]!.username.slice(-6)}`;
  const context = await browser.newContext({ baseURL: api.url });
  const page = await context.newPage();

  await test.step('an administrator starts a campaign reviewed by User Support', async () => {
    await signInThroughForm(page, 'admin');
    const xsrf = await page.evaluate(() => localStorage.getItem('xsrfToken'));
    const started = await context.request.post('/rest/secure/system_mgmt/access_reviews', {
      headers: { 'x-xsrf-token': xsrf! },
      data: {
        name,
        scope: { systemAccessIds: [], roleNames: ['Research Pharmacist'], laoIds: ['NY016'] },
        reviewers: 'USER_SUPPORT',
        durationDays: 1,
        reminderEveryDays: 1,
        defaultDecision: 'KEEP',
      },
    });
    expect(started.status(), await started.text()).toBe(200);
    const id = ((await started.json()) as { id: number }).id;
    await page.goto(`/app/access-review-campaigns/${id}`);
    await expect(page.getByTestId('campaign-status')).toHaveText('Open', { timeout: 60_000 });
    await signOut(page);
  });

  await test.step('the reviewer keeps both accesses with one signature', async () => {
    await signInThroughForm(page, 'reviewer');
    await page.goto('/app/access-reviews');
    await pick(page, page.getByRole('combobox', { name: 'Campaign' }), name);
    const table = page.getByRole('table', { name: 'Review items' });
    await page.getByLabel('Filter items').fill('sigrvw');
    await expect(table.getByRole('rowheader')).toHaveCount(2);
    await table.getByRole('checkbox', { name: 'Select all items on this page' }).check();
    await page.getByRole('button', { name: 'Keep', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: T.legend });
    await expect(dialog.getByRole('combobox', { name: 'Meaning' })).toHaveValue('Reviewed');
    await dialog.getByRole('textbox', { name: 'Username' }).fill('reviewer');
    await dialog.getByLabel('Password', { exact: true }).fill(account('reviewer').password);
    await shot(page, 'signature-08-bulk-decision-signing');
    await dialog.getByRole('button', { name: 'Sign', exact: true }).click();
    await expect(dialog).toBeHidden();
    const results = page.getByRole('list', { name: 'Per-item results' });
    await expect(results.getByRole('listitem')).toHaveCount(2);
    await expect(results.getByText('Saved')).toHaveCount(2);
    const manifest = page.getByRole('region', { name: 'Results of Keep' }).getByRole('list', { name: T.legend });
    await expect(manifest.getByRole('listitem')).toHaveCount(1);
    await expect(manifest).toContainText(/Signed by .+ \(reviewer\) on .+ — Reviewed/);
    await shot(page, 'signature-09-bulk-decision-signed');
    await page.setViewportSize({ width: 390, height: 844 });
    await shot(page, 'signature-10-bulk-decision-signed-phone');
  });

  const check = journeyPrisma();
  const signatures = await check.signature
    .findMany({
      where: { action: 'ACCESS_REVIEW_DECISION', signerUsername: 'reviewer' },
      orderBy: { id: 'desc' },
      take: 1,
    })
    .finally(() => check.$disconnect());
  expect((signatures[0]?.content as { items?: unknown[] }).items, 'one signature names both items').toHaveLength(2);
  await context.close();
});

test('a staff member signs a deactivation with a passkey instead of the password', async ({ browser }) => {
  test.setTimeout(180_000);
  const prisma = journeyPrisma();
  const context = await browser.newContext({ baseURL: api.url });
  const page = await context.newPage();
  try {
    await virtualAuthenticator(page);
    const [signer, person] = await Promise.all([
      makeJourneyUser(prisma, 'pksigner'),
      makeJourneyUser(prisma, 'pksigned'),
    ]);
    const support = await prisma.portalRole.findFirstOrThrow({ where: { description: 'User Support' } });
    await prisma.portalUserRole.create({ data: { portalUserId: signer.id, portalRoleId: support.id } });

    await test.step('the staff member adds a passkey (beside an app: in use at once)', async () => {
      await signInWith(page, signer);
      await enrolConfirmed(prisma, journeyEnv().SECOND_FACTOR_KEY!, signer, 'Phone');
      await addPasskey(page, signer, 'Signing key');
    });

    await test.step("'Change User Status' is signed with the passkey: no username, no password", async () => {
      await page.goto(`/app/users/${person.id}`);
      await page.getByRole('button', { name: 'Change to Inactive' }).click();
      const dialog = page.getByRole('dialog', { name: 'Change User Status' });
      await expect(dialog.getByRole('button', { name: T.signWithPasskey })).toBeVisible();
      await shot(page, 'signature-11-passkey-offered');
      await dialog.getByRole('button', { name: T.signWithPasskey }).click();
      await expect(dialog).toBeHidden();
      await expect(page.getByTestId('user-status')).toHaveText('Inactive');
    });

    await test.step('the Account tab lists the signed status change', async () => {
      const section = page.getByRole('region', { name: T.signedDecisions });
      await expect(section.getByRole('listitem')).toHaveCount(1);
      await expect(section.getByRole('listitem')).toContainText(
        new RegExp(`^Status changed: Signed by Jamie ${signer.lastName} \\(${signer.username}\\) on .+ — Approved`),
      );
      await expect(section.getByText(T.matches)).toBeVisible();
      await shot(page, 'signature-12-user-signed-decisions');
      await page.setViewportSize({ width: 390, height: 844 });
      await shot(page, 'signature-13-user-signed-decisions-phone');
    });

    const signature = await prisma.signature.findFirstOrThrow({
      where: { signerUserId: signer.id, action: 'USER_STATUS' },
    });
    expect(signature).toMatchObject({ method: 'PASSKEY', entityId: String(person.id), meaning: 'Approved' });
    expect((await prisma.portalUser.findUniqueOrThrow({ where: { id: person.id } })).inactive).toBe(true);
  } finally {
    await prisma.$disconnect();
    await context.close();
  }
});
