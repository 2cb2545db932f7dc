// A stack's local secrets: the worker's MAIL_LINK_KEY is generated once per data folder and then kept.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadOrCreateSecrets } from './secrets';

const dirs: string[] = [];
const tempDir = () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-secrets-'));
  dirs.push(dir);
  return dir;
};
afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

describe('loadOrCreateSecrets', () => {
  it('keeps the mail link key across starts', () => {
    const dir = tempDir();
    const first = loadOrCreateSecrets(dir);
    expect(first.mailLinkKey.length).toBeGreaterThanOrEqual(32);
    // Issue 41: the provisioning key (API and worker) and the demo laboratory system's bearer token.
    expect(first.provisioningKey.length).toBeGreaterThanOrEqual(32);
    expect(first.demoScimToken.length).toBeGreaterThanOrEqual(32);
    expect(loadOrCreateSecrets(dir)).toEqual(first);
  });

  it('adds the key to a secrets file written before it, keeping the other secrets', () => {
    const dir = tempDir();
    const older = { ldapAdminPassword: 'p'.repeat(24), sessionSecret: 's'.repeat(64) };
    fs.writeFileSync(path.join(dir, 'secrets.json'), JSON.stringify(older));
    const secrets = loadOrCreateSecrets(dir);
    expect(secrets).toMatchObject(older);
    expect(JSON.parse(fs.readFileSync(path.join(dir, 'secrets.json'), 'utf8'))).toEqual(secrets);
  });
});
