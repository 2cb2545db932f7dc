/**
 * `npm run audit:verify`: verifies the whole audit trail (docs/decisions.md "A tamper-evident audit trail") and
 * names the first rows changed, missing, inserted or inserted late, and the seals altered or cut off, with the
 * time window affected. The verification is audited (`AUDIT_VERIFIED`). Exits 1 when anything was found, 2
 * when it could not verify (PostgreSQL unreachable, no public key).
 *
 * Settings from the environment: DATABASE_URL, AUDIT_SEAL_PUBLIC_KEYS (every public key ever used), and for
 * the witness TEMPORAL_ADDRESS and TEMPORAL_NAMESPACE; AUDIT_LATE_AFTER (default '10 minutes'). Unset, they
 * are read from the local stack `npm run up` started (`.data/dev/audit-verify.json`, or --data-dir).
 */
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { Client, Connection } from '@temporalio/client';
import { msToNumber } from '@temporalio/common/lib/time';
import pg from 'pg';
import { poolConfigFromUrl, recordAuditVerification, sealPublicKeys, verifyAuditTrail } from '@portal/db';
import { newestWitnessedSeal } from '@portal/workflows';
import { AUDIT_VERIFY_FILE, repoPath } from './paths';

function settings(dataDir: string): Record<string, string | undefined> {
  const file = path.join(dataDir, AUDIT_VERIFY_FILE);
  const stored = fs.existsSync(file) ? (JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, string>) : {};
  return {
    ...stored,
    ...Object.fromEntries(
      Object.entries(process.env).filter(([k]) => k in stored || /^(DATABASE_URL|AUDIT_|TEMPORAL_)/.test(k)),
    ),
  };
}

async function main(): Promise<number> {
  const { values } = parseArgs({ options: { 'data-dir': { type: 'string' } } });
  const env = settings(values['data-dir'] ?? repoPath('.data', 'dev'));
  if (!env.DATABASE_URL || !env.AUDIT_SEAL_PUBLIC_KEYS) {
    console.error('audit:verify needs DATABASE_URL and AUDIT_SEAL_PUBLIC_KEYS (or a stack started by npm run up)');
    return 2;
  }
  let witness = null;
  if (env.TEMPORAL_ADDRESS) {
    const connection = await Connection.connect({ address: env.TEMPORAL_ADDRESS }).catch(() => null);
    if (connection) {
      const client = new Client({ connection, namespace: env.TEMPORAL_NAMESPACE ?? 'default' });
      witness = await newestWitnessedSeal(client).catch(() => null);
      await connection.close();
    }
    if (!witness) console.log('(no seal witnessed by Temporal found: the newest seals cannot be checked for a cut)');
  }
  const pool = new pg.Pool({ ...poolConfigFromUrl(env.DATABASE_URL), max: 1 });
  const client = await pool.connect();
  try {
    const v = await verifyAuditTrail(client, {
      publicKeys: sealPublicKeys(env.AUDIT_SEAL_PUBLIC_KEYS),
      lateAfterMs: msToNumber((env.AUDIT_LATE_AFTER ?? '10 minutes') as '1m'),
      witness,
    });
    await recordAuditVerification(client, v, { userId: null, username: 'audit:verify' });
    console.log(
      `${v.rows} rows in ${v.seals} seals verified in ${(v.ms / 1000).toFixed(1)} s; ${v.awaitingSeal} newer rows await their seal`,
    );
    if (v.ok) {
      console.log('audit trail intact');
      return 0;
    }
    console.log(`${v.findingsTotal} finding(s); the first:`);
    for (const f of v.findings)
      console.log(
        `  ${f.kind}${f.rowId ? ` row ${f.rowId}` : ''}${f.sealId ? ` seal ${f.sealId}` : ''}  [${f.from ?? '…'} – ${f.to ?? '…'}]  ${f.detail}`,
      );
    return 1;
  } finally {
    client.release();
    await pool.end();
  }
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    console.error(`audit:verify could not verify: ${err instanceof Error ? err.message : String(err)}`);
    process.exit(2);
  },
);
