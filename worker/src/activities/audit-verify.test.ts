/** The verifier's keys on the worker: AUDIT_SEAL_PUBLIC_KEYS, else the key derived from the private one, else off. */
import { describe, expect, it } from 'vitest';
import { newSealKeyPair, sealPublicKeys } from '@portal/db';
import { auditVerifySettings, createAuditVerifyActivities } from './audit-verify';

const base = { databaseUrl: 'postgres://nobody@127.0.0.1:1/none', lateAfterMs: 60_000 };

describe('audit verification settings', () => {
  it('takes every key of AUDIT_SEAL_PUBLIC_KEYS, before the private key', () => {
    const [a, b, c] = [newSealKeyPair(), newSealKeyPair(), newSealKeyPair()];
    const s = auditVerifySettings({ ...base, publicKeys: `${a.publicKey}, ${b.publicKey}`, privateKey: c.privateKey });
    expect([...s!.publicKeys.keys()].sort()).toEqual(
      [...sealPublicKeys(`${a.publicKey},${b.publicKey}`).keys()].sort(),
    );
  });

  it('derives the public key from AUDIT_SEAL_PRIVATE_KEY when only that is set', () => {
    const k = newSealKeyPair();
    const s = auditVerifySettings({ ...base, publicKeys: '', privateKey: k.privateKey });
    expect([...s!.publicKeys.keys()]).toEqual([...sealPublicKeys(k.publicKey).keys()]);
  });

  it('is off without either, and the activity then fails without retries', async () => {
    expect(auditVerifySettings({ ...base, privateKey: '' })).toBeUndefined();
    const { verifyAuditTrailStep } = createAuditVerifyActivities(undefined);
    await expect(
      verifyAuditTrailStep({ witness: null, actor: { userId: 1, username: 'admin' } }),
    ).rejects.toMatchObject({ nonRetryable: true, message: expect.stringMatching(/verification is off/) });
  });
});
