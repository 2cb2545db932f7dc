/**
 * Starts the whole product for the journeys in a throw-away data folder on free ports, seeded with the
 * demo accounts, and stops it afterwards. Writes the stack's URLs to process.env for the test workers.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startStack } from '@portal/scripts';

export default async function globalSetup(): Promise<() => Promise<void>> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-e2e-'));
  fs.chmodSync(dataDir, 0o755);
  const logFile = path.join(import.meta.dirname, '..', 'artifacts', 'e2e-stack.log');
  fs.mkdirSync(path.dirname(logFile), { recursive: true });
  const log = fs.createWriteStream(logFile);
  const stack = await startStack({
    dataDir,
    ports: 'random',
    seed: true,
    apps: true,
    handleSignals: false,
    env: { ...process.env, SEED_GENERATED_USERS: process.env.SEED_GENERATED_USERS ?? '300' },
    log: (line) => log.write(`${line}\n`),
  });
  process.env.PORTAL_URL = stack.urls.portal;
  process.env.MAIL_API_URL = stack.urls.mailApi ?? '';
  process.env.TEMPORAL_UI_URL = stack.urls.temporalUi ?? '';
  // The services' settings, for journeys that start a second API on them (session timeout in seconds).
  process.env.E2E_PORTAL_ENV = JSON.stringify(stack.portalEnv);
  return async () => {
    await stack.stop();
    log.end();
    fs.rmSync(dataDir, { recursive: true, force: true });
  };
}
