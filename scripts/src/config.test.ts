import { describe, expect, it } from 'vitest';
import { ConfigError, loadStackEnv } from './config';

describe("loadStackEnv: POSTGRES_SHARED_BUFFERS (the stack PostgreSQL's shared_buffers)", () => {
  it('takes a size in kB, MB or GB and leaves it unset by default', () => {
    expect(loadStackEnv({ POSTGRES_SHARED_BUFFERS: '4GB' }).POSTGRES_SHARED_BUFFERS).toBe('4GB');
    expect(loadStackEnv({ POSTGRES_SHARED_BUFFERS: '512MB' }).POSTGRES_SHARED_BUFFERS).toBe('512MB');
    expect(loadStackEnv({}).POSTGRES_SHARED_BUFFERS).toBeUndefined();
  });

  it('refuses anything else, naming the variable and the value', () => {
    expect(() => loadStackEnv({ POSTGRES_SHARED_BUFFERS: 'lots' })).toThrow(ConfigError);
    expect(() => loadStackEnv({ POSTGRES_SHARED_BUFFERS: '4 GB' })).toThrow(
      /POSTGRES_SHARED_BUFFERS: must be a size such as '2GB' or '512MB' \(got "4 GB"\)/,
    );
  });
});
