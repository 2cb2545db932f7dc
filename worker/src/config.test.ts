// The worker's configuration: MAIL_LINK_KEY has no default (issue 21 case 6: every worker needs the same key).
import { describe, expect, it } from 'vitest';
import { WorkerConfigSchema, parseEnv } from './config';

const env = { DATABASE_URL: 'postgresql://portal@db/portal', SMTP_URL: 'smtp://mail:1025' };

describe('WorkerConfigSchema MAIL_LINK_KEY', () => {
  it('is required: a per-process random key would break the links other workers re-send', () => {
    expect(() => parseEnv(WorkerConfigSchema, env)).toThrow(/MAIL_LINK_KEY/);
  });

  it('needs 32 characters or more', () => {
    expect(() => parseEnv(WorkerConfigSchema, { ...env, MAIL_LINK_KEY: 'short' })).toThrow(
      /MAIL_LINK_KEY: must be at least 32 characters/,
    );
    const key = 'k'.repeat(32);
    expect(parseEnv(WorkerConfigSchema, { ...env, MAIL_LINK_KEY: key }).MAIL_LINK_KEY).toBe(key);
  });
});
