/**
 * Entry point of the demo study system 'Electronic Data Capture (demo)' (issue 22): a relying party of the
 * portal's single sign-on, started by the stack supervisor (start.ts) with `node --import tsx` once the API is
 * up. Listens on and is reached as http://127.0.0.1:<DEMO_SYSTEM_PORT> (the portal is on localhost: another
 * site); SIGTERM ends it.
 */
import { DEMO_SYSTEM_TITLE, loadDemoConfig } from './config';
import { RelyingParty } from './relying-party';
import { createDemoServer } from './server';
import { SessionStore } from './sessions';

const log = (line: string): void => console.log(line);

function main(): void {
  const cfg = loadDemoConfig();
  const server = createDemoServer(cfg, new RelyingParty(cfg), new SessionStore(), log);
  server.listen(cfg.port, '127.0.0.1', () => {
    log(`${DEMO_SYSTEM_TITLE} on ${cfg.baseUrl} (client ${cfg.clientId} of ${cfg.issuer})`);
  });
  const stop = (): void => {
    server.close(() => process.exit(0));
    server.closeAllConnections();
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}

try {
  main();
} catch (err) {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
}
