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

describe('WorkerConfigSchema ACCESS_REVIEW_STUDY_ROLE (issue 25)', () => {
  const withKey = { ...env, MAIL_LINK_KEY: 'k'.repeat(32) };

  it("defaults to 'LAO Staff' and takes another study role", () => {
    expect(parseEnv(WorkerConfigSchema, withKey).ACCESS_REVIEW_STUDY_ROLE).toBe('LAO Staff');
    expect(
      parseEnv(WorkerConfigSchema, { ...withKey, ACCESS_REVIEW_STUDY_ROLE: 'Study Coordinator' })
        .ACCESS_REVIEW_STUDY_ROLE,
    ).toBe('Study Coordinator');
  });

  it('refuses an empty one', () => {
    expect(() => parseEnv(WorkerConfigSchema, { ...withKey, ACCESS_REVIEW_STUDY_ROLE: '' })).toThrow(
      /ACCESS_REVIEW_STUDY_ROLE/,
    );
  });
});

describe('WorkerConfigSchema provisioning (issue 41)', () => {
  const withKey = { ...env, MAIL_LINK_KEY: 'k'.repeat(32) };

  it('defaults the attempt to a minute and the longest retry wait to ten minutes, and refuses a wait under a second', () => {
    const cfg = parseEnv(WorkerConfigSchema, withKey);
    expect([cfg.PROVISIONING_ATTEMPT_TIMEOUT, cfg.PROVISIONING_MAX_RETRY_INTERVAL]).toEqual(['1 minute', '10 minutes']);
    expect(cfg.PROVISIONING_KEY).toBeUndefined();
    expect(() => parseEnv(WorkerConfigSchema, { ...withKey, PROVISIONING_MAX_RETRY_INTERVAL: '500ms' })).toThrow(
      /PROVISIONING_MAX_RETRY_INTERVAL: must be at least 1 second/,
    );
    expect(() => parseEnv(WorkerConfigSchema, { ...withKey, PROVISIONING_KEY: 'short' })).toThrow(/PROVISIONING_KEY/);
    expect(parseEnv(WorkerConfigSchema, { ...withKey, PROVISIONING_KEY: '' }).PROVISIONING_KEY).toBeUndefined();
  });
});
