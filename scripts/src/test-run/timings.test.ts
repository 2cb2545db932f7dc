import { describe, expect, it } from 'vitest';
import {
  BUDGET_SECONDS,
  busyShare,
  formatTable,
  parseCpuTimes,
  playwrightItems,
  slowest,
  vitestItems,
} from './timings';

describe('the test run timing table', () => {
  it('reads each file of a vitest JSON report with its wall-clock seconds, relative to the repository', () => {
    const report = {
      testResults: [
        { name: '/repo/tests/integration/a.test.ts', startTime: 1_000, endTime: 4_500 },
        { name: '/elsewhere/b.test.ts', startTime: 0, endTime: 250 },
        { name: 'broken' },
      ],
    };
    expect(vitestItems(report, 'integration', '/repo')).toEqual([
      { kind: 'vitest', project: 'integration', name: 'tests/integration/a.test.ts', seconds: 3.5 },
      { kind: 'vitest', project: 'integration', name: '/elsewhere/b.test.ts', seconds: 0.25 },
    ]);
    expect(vitestItems(null, 'unit', '/repo')).toEqual([]);
    expect(vitestItems({ testResults: 'x' }, 'unit', '/repo')).toEqual([]);
  });

  it('reads each journey of a Playwright JSON report, nested describes titled, every attempt added', () => {
    const report = {
      suites: [
        {
          title: 'a.spec.ts',
          file: 'a.spec.ts',
          specs: [{ title: 'files a request', tests: [{ results: [{ duration: 1_500 }, { duration: 500 }] }] }],
          suites: [
            {
              title: 'as a reviewer',
              specs: [{ title: 'approves', file: 'a.spec.ts', tests: [{ results: [{ duration: 3_000 }] }] }],
            },
          ],
        },
      ],
    };
    expect(playwrightItems(report, 'tests/e2e')).toEqual([
      { kind: 'playwright', project: 'chromium', name: 'tests/e2e/a.spec.ts › files a request', seconds: 2 },
      { kind: 'playwright', project: 'chromium', name: 'tests/e2e/a.spec.ts › as a reviewer › approves', seconds: 3 },
    ]);
    expect(playwrightItems(undefined, 'tests/e2e')).toEqual([]);
  });

  it('keeps the slowest first, at most n', () => {
    const items = [1, 5, 3].map((seconds) => ({ kind: 'vitest' as const, project: 'p', name: `f${seconds}`, seconds }));
    expect(slowest(items, 2).map((i) => i.name)).toEqual(['f5', 'f3']);
  });

  it('prints every phase, the total after install against the budget, and the slowest files and journeys', () => {
    const table = formatTable({
      startedAt: '2026-11-28T00:00:00.000Z',
      afterInstallSeconds: BUDGET_SECONDS + 61,
      budgetSeconds: BUDGET_SECONDS,
      phases: [
        { name: 'install', seconds: 30, ok: true },
        { name: 'vitest unit', seconds: 75.4, ok: false, cpuBusy: 0.456 },
      ],
      items: [
        { kind: 'vitest', project: 'unit', name: 'x.test.ts', seconds: 12 },
        { kind: 'playwright', project: 'chromium', name: 'tests/e2e/a.spec.ts › j', seconds: 40 },
      ],
    });
    expect(table).toContain('install');
    expect(table).toMatch(/vitest unit\s+1:15\s+75\.4 s\s+46%\s+FAILED/);
    expect(table).toMatch(/after install \(total\)\s+19:01\s+1141\.0 s\s+budget 18:00: OVER by 1:01/);
    expect(table).toMatch(/slowest test files \(vitest\):\n\s+12\.0 s\s+\[unit\] x\.test\.ts/);
    expect(table).toMatch(/slowest journeys \(Playwright\):\n\s+40\.0 s\s+tests\/e2e\/a\.spec\.ts › j/);
  });

  it('reads the CPU counters of /proc/stat and the busy share between two readings', () => {
    const at = (user: number, idle: number, iowait: number) =>
      `cpu  ${user} 0 100 ${idle} ${iowait} 0 0 0 0 0\ncpu0 1 2 3 4 5 6 7 8 0 0\n`;
    const before = parseCpuTimes(at(1_000, 5_000, 100));
    expect(before).toEqual({ total: 6_200, idle: 5_100 });
    // 300 ticks busy (user) and 100 idle in between: three quarters busy.
    expect(busyShare(before, parseCpuTimes(at(1_300, 5_050, 150)))).toBeCloseTo(0.75);
    expect(parseCpuTimes('intr 1 2 3')).toBeNull();
    expect(busyShare(null, before)).toBeUndefined();
    expect(busyShare(before, before)).toBeUndefined();
  });
});
