import { describe, expect, it } from 'vitest';
import { runShutdown } from './shutdown';

describe('runShutdown', () => {
  it('runs every step in order and answers done', async () => {
    const ran: string[] = [];
    const outcome = await runShutdown(
      ['a', 'b', 'c'].map((name) => ({ name, run: async () => void ran.push(name) })),
      1_000,
    );
    expect(outcome).toEqual({ kind: 'done' });
    expect(ran).toEqual(['a', 'b', 'c']);
  });

  it('names the step still running at the deadline and does not start the next', async () => {
    const ran: string[] = [];
    const outcome = await runShutdown(
      [
        { name: 'http server', run: () => void ran.push('http server') },
        { name: 'temporal connection', run: () => new Promise(() => ran.push('temporal connection')) },
        { name: 'database', run: () => void ran.push('database') },
      ],
      50,
    );
    expect(outcome).toEqual({ kind: 'timeout', step: 'temporal connection' });
    expect(ran).toEqual(['http server', 'temporal connection']);
  });

  it('stops at a step that throws and names it', async () => {
    const error = new Error('refused');
    const outcome = await runShutdown(
      [
        {
          name: 'metrics server',
          run: () => {
            throw error;
          },
        },
        { name: 'database', run: () => undefined },
      ],
      1_000,
    );
    expect(outcome).toEqual({ kind: 'failed', step: 'metrics server', error });
  });
});
