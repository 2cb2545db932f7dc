/**
 * The test run's timing table: how long each phase of `npm test` took and which test files and journeys
 * took longest, read from the vitest and Playwright JSON reports. Pure functions (no I/O beyond what the
 * caller passes), so the table is unit-tested; `main.ts` times the phases and writes
 * `test-results/timings.json`. Budget: docs/decisions.md, "The test suite's budget".
 */

/**
 * One phase of the run; `seconds` is wall-clock time, `ok` false when the phase failed. `cpuBusy` is the
 * share (0 to 1) of the machine's CPU time that was busy during the phase, whoever used it: a phase far
 * below 1 waits more than it computes, so running something beside it costs little.
 */
export interface PhaseTiming {
  name: string;
  seconds: number;
  ok: boolean;
  cpuBusy?: number;
}

/** The machine's CPU counters (`/proc/stat`'s first line, in clock ticks): all time, and idle time. */
export interface CpuTimes {
  total: number;
  idle: number;
}

/** Parses `/proc/stat`'s aggregate `cpu` line; idle counts `idle` and `iowait`. Null when absent. */
export function parseCpuTimes(procStat: string): CpuTimes | null {
  const line = procStat.split('\n').find((l) => l.startsWith('cpu '));
  if (!line) return null;
  const ticks = line.trim().split(/\s+/).slice(1).map(Number);
  if (ticks.length < 5 || ticks.some((n) => !Number.isFinite(n))) return null;
  // user nice system idle iowait irq softirq steal (guest time is already inside user and nice).
  const total = ticks.slice(0, 8).reduce((n, t) => n + t, 0);
  return { total, idle: ticks[3]! + ticks[4]! };
}

/** The busy share of the CPU between two readings (0 to 1), or undefined when either is missing. */
export function busyShare(before: CpuTimes | null, after: CpuTimes | null): number | undefined {
  if (!before || !after || after.total <= before.total) return undefined;
  return 1 - (after.idle - before.idle) / (after.total - before.total);
}

/** One test file (vitest) or journey (Playwright) and its wall-clock seconds. */
export interface ItemTiming {
  kind: 'vitest' | 'playwright';
  /** The vitest project, or 'chromium' for a journey. */
  project: string;
  /** A file path relative to the repository; for a journey also its title. */
  name: string;
  seconds: number;
}

/** What `test-results/timings.json` holds: every phase, every file and journey, and the budget. */
export interface Timings {
  startedAt: string;
  /** Seconds of everything after install (the figure the budget is about). */
  afterInstallSeconds: number;
  budgetSeconds: number;
  phases: PhaseTiming[];
  items: ItemTiming[];
}

/** The budget for everything after install, in seconds (18 minutes). */
export const BUDGET_SECONDS = 18 * 60;

const relative = (file: string, root: string): string =>
  file.startsWith(`${root}/`) ? file.slice(root.length + 1) : file;

/**
 * The files of a vitest JSON report (`--reporter=json`) with their wall-clock seconds (end minus start of
 * the file). `root` is stripped from the paths. Unknown shapes give an empty list, never a throw: a report
 * that is missing must not hide the run's own result.
 */
export function vitestItems(report: unknown, project: string, root: string): ItemTiming[] {
  const results = (report as { testResults?: unknown })?.testResults;
  if (!Array.isArray(results)) return [];
  return results.flatMap((r: { name?: unknown; startTime?: unknown; endTime?: unknown }) =>
    typeof r.name === 'string' && typeof r.startTime === 'number' && typeof r.endTime === 'number'
      ? [{ kind: 'vitest' as const, project, name: relative(r.name, root), seconds: (r.endTime - r.startTime) / 1000 }]
      : [],
  );
}

interface PwSuite {
  title?: string;
  file?: string;
  specs?: Array<{ title?: string; file?: string; tests?: Array<{ results?: Array<{ duration?: number }> }> }>;
  suites?: PwSuite[];
}

/**
 * The journeys of a Playwright JSON report (the `json` reporter) with their seconds (every attempt's
 * duration added). Paths are relative to the repository (`testsDir` is the config's folder, relative).
 */
export function playwrightItems(report: unknown, testsDir: string): ItemTiming[] {
  const out: ItemTiming[] = [];
  const walk = (suite: PwSuite, parents: string[], file: string | undefined) => {
    const here = suite.file ?? file;
    // A file's own suite is titled by its file name, already in the path; a describe adds its title.
    const titles = suite.file ? parents : [...parents, suite.title ?? ''];
    for (const spec of suite.specs ?? []) {
      const ms = (spec.tests ?? []).flatMap((t) => t.results ?? []).reduce((n, r) => n + (r.duration ?? 0), 0);
      out.push({
        kind: 'playwright',
        project: 'chromium',
        name: `${testsDir}/${spec.file ?? here ?? '?'} › ${[...titles, spec.title ?? ''].filter(Boolean).join(' › ')}`,
        seconds: ms / 1000,
      });
    }
    for (const child of suite.suites ?? []) walk(child, titles, here);
  };
  const suites = (report as { suites?: unknown })?.suites;
  if (Array.isArray(suites)) for (const s of suites as PwSuite[]) walk(s, [], undefined);
  return out;
}

/** The `n` slowest items, slowest first. */
export const slowest = (items: ItemTiming[], n = 15): ItemTiming[] =>
  [...items].sort((a, b) => b.seconds - a.seconds).slice(0, n);

const clock = (seconds: number): string => {
  const s = Math.round(seconds);
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
};

/**
 * The table printed at the end of `npm test`: phases with m:ss and seconds, the total after install beside
 * the budget, then the slowest vitest files and the slowest journeys (15 each).
 */
export function formatTable(t: Timings): string {
  const width = Math.max(28, ...t.phases.map((p) => p.name.length));
  const cpu = (busy: number | undefined) => (busy === undefined ? '' : `${Math.round(busy * 100)}%`).padStart(5);
  const row = (name: string, seconds: number, note = '', busy?: number) =>
    `  ${name.padEnd(width)}  ${clock(seconds).padStart(6)}  ${seconds.toFixed(1).padStart(8)} s  ${cpu(busy)}${note ? `  ${note}` : ''}`;
  const lines = [
    '== timings (test-results/timings.json; cpu: share of both cores busy during the phase, whoever used it)',
    `  ${'phase'.padEnd(width)}  ${'m:ss'.padStart(6)}  ${'seconds'.padStart(10)}  ${'cpu'.padStart(5)}`,
  ];
  for (const p of t.phases) lines.push(row(p.name, p.seconds, p.ok ? '' : 'FAILED', p.cpuBusy));
  const within = t.afterInstallSeconds <= t.budgetSeconds;
  lines.push(
    row(
      'after install (total)',
      t.afterInstallSeconds,
      `budget ${clock(t.budgetSeconds)}: ${within ? 'within' : `OVER by ${clock(t.afterInstallSeconds - t.budgetSeconds)}`}`,
    ),
  );
  for (const kind of ['vitest', 'playwright'] as const) {
    const top = slowest(t.items.filter((i) => i.kind === kind));
    if (top.length === 0) continue;
    lines.push(`  slowest ${kind === 'vitest' ? 'test files (vitest)' : 'journeys (Playwright)'}:`);
    for (const i of top)
      lines.push(`    ${i.seconds.toFixed(1).padStart(7)} s  ${kind === 'vitest' ? `[${i.project}] ` : ''}${i.name}`);
  }
  return lines.join('\n');
}
