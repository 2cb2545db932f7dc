/**
 * Passkeys in journeys (docs/decisions.md "Passkeys"): Chromium's virtual authenticator (DevTools protocol
 * WebAuthn domain) and the Profile → Security steps that add a passkey, shared by the passkey and signing
 * journeys.
 */
import { expect, type Page } from '@playwright/test';
import { SECOND_FACTOR_TEXTS } from '@portal/contract';
import type { JourneyUser } from '../support/journey-users';
import { linkFromMail, shot } from './support';

/**
 * Gives `page` a virtual platform authenticator (resident keys, user verification that always succeeds), as a
 * laptop's fingerprint reader would be. @returns a reader of the credentials it holds.
 */
export async function virtualAuthenticator(page: Page): Promise<() => Promise<number>> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
  return async () => (await cdp.send('WebAuthn.getCredentials', { authenticatorId })).credentials.length;
}

/** Adds a passkey named `name` on Profile → Security (the password again, then the browser's prompt). */
export async function addPasskey(page: Page, me: JourneyUser, name: string, screen?: string): Promise<void> {
  await page.goto('/app/profile?tab=security');
  const section = page.getByRole('region', { name: 'Passkeys and Security Keys' });
  await section.getByRole('button', { name: 'Add a passkey' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add a passkey' });
  await dialog.getByLabel('Name of the passkey').fill(name);
  await dialog.getByLabel('Password', { exact: true }).fill(me.password);
  if (screen) await shot(page, screen);
  await dialog.getByRole('button', { name: 'Continue' }).click();
  await expect(dialog).toBeHidden();
  await expect(section.getByRole('row', { name: new RegExp(name) })).toBeVisible();
}

/** Confirms a first factor by the link mailed to `me`, and sees the ten recovery codes it shows once. */
export async function confirmFromMail(page: Page, me: JourneyUser): Promise<void> {
  await page.goto(await linkFromMail(me.email, SECOND_FACTOR_TEXTS.mailSubjectConfirm));
  await page.getByRole('button', { name: 'Confirm' }).click();
  await expect(page.getByRole('list', { name: 'Recovery codes' }).getByRole('listitem')).toHaveCount(10);
}
