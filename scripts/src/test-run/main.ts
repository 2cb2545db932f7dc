/**
 * `npm test` after install (scripts/test.sh runs install first and passes its seconds): the phases of
 * STAGES, stage after stage; within a stage its sides run beside each other, each side's phases one after
 * another. Stops after the stage where a phase failed. Always ends with the timing table (`timings.ts`),
 * written also to `test-results/timings.json`, and the check that no process of the run is still alive
 * (`leftovers.ts`). Exits 1 when a phase failed or something was left behind.
 *
 * Usage: node --import tsx scripts/src/test-run/main.ts [--install-ms N] [--only checks,unit,...,playwright]
 * (`--only` runs just the named phases: `checks` for lint and types, a vitest project's name, `playwright`;
 * `npm test -- --only integration` passes it through).
 */
import { spawn } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { leftoversAfter, RUN_MARKER, ownProcesses } from './leftovers';
import {
  BUDGET_SECONDS,
  busyShare,
  type CpuTimes,
  formatTable,
  type ItemTiming,
  type PhaseTiming,
  parseCpuTimes,
  playwrightItems,
  type Timings,
  vitestItems,
} from './timings';

/**
 * The order of the phases: `checks` (lint, format and types), each vitest project, `playwright`. A stage is
 * a list of sides run beside each other. The integration files that run alone wait on timers and stopped
 * services far more than they compute (about a third of the two cores on a quiet machine), so the checks,
 * the web app's component tests and the unit tests, which need no stack, fill the idle cores beside them. The
 * integration files that run together keep both cores busy (about 90 %), and so do the journeys: they each
 * have a stage of their own (docs/decisions.md, "The test suite's budget").
 */
const STAGES: string[][][] = [[['integration']], [['integration-alone'], ['checks', 'web', 'unit']], [['playwright']]];

const ROOT = path.resolve(import.meta.dirname, '..', '..', '..');
const RESULTS = path.join(ROOT, 'test-results');

/** A command of a phase; `quiet` buffers its output and prints it when it ends (for phases run side by side). */
interface Step {
  command: string;
  args: string[];
  env?: Record<string, string>;
}

/** Runs the steps one after another; resolves false at the first one that fails. */
function runSteps(steps: Step[], label: string | null): Promise<boolean> {
  return steps.reduce<Promise<boolean>>(
    (prev, step) =>
      prev.then(
        (ok) =>
          ok &&
          new Promise<boolean>((resolve) => {
            const child = spawn(step.command, step.args, {
              cwd: ROOT,
              env: { ...process.env, ...step.env },
              stdio: ['ignore', label ? 'pipe' : 'inherit', label ? 'pipe' : 'inherit'],
            });
            let buffered = '';
            child.stdout?.on('data', (d: Buffer) => (buffered += d.toString()));
            child.stderr?.on('data', (d: Buffer) => (buffered += d.toString()));
            child.on('error', (err) => {
              buffered += `${err.message}\n`;
            });
            child.on('close', (code) => {
              if (label && buffered) process.stdout.write(buffered.replace(/^(?=.)/gm, `[${label}] `));
              resolve(code === 0);
            });
          }),
      ),
    Promise.resolve(true),
  );
}

/** The machine's CPU counters now (null where there is no /proc, e.g. macOS). */
const cpuNow = (): CpuTimes | null => {
  try {
    return parseCpuTimes(fs.readFileSync('/proc/stat', 'utf8'));
  } catch {
    return null;
  }
};

const readJson = (file: string): unknown => {
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch {
    return null;
  }
};

/** The vitest projects of vitest.config.ts, in its order: run one by one so each has its own row. */
async function vitestProjects(): Promise<string[]> {
  const config = (await import(path.join(ROOT, 'vitest.config.ts'))) as {
    default: { test?: { projects?: Array<{ test?: { name?: string } }> } };
  };
  return (config.default.test?.projects ?? []).flatMap((p) => (p.test?.name ? [p.test.name] : []));
}

async function main(): Promise<number> {
  const installArg = process.argv.indexOf('--install-ms');
  const installSeconds = installArg > 0 ? Number(process.argv[installArg + 1]) / 1000 : NaN;
  const onlyArg = process.argv.indexOf('--only');
  const only = onlyArg > 0 ? new Set((process.argv[onlyArg + 1] ?? '').split(',')) : null;
  const wanted = (phase: string) => !only || only.has(phase);
  const runId = crypto.randomUUID();
  process.env[RUN_MARKER] = runId;
  fs.mkdirSync(RESULTS, { recursive: true });

  const phases: PhaseTiming[] = [];
  const items: ItemTiming[] = [];
  const startedAt = new Date();
  const runStart = performance.now();
  const timed = async (names: string[], run: () => Promise<boolean[]>): Promise<boolean> => {
    const t0 = performance.now();
    const cpu0 = cpuNow();
    const oks = await run();
    const seconds = (performance.now() - t0) / 1000;
    const cpuBusy = busyShare(cpu0, cpuNow());
    names.forEach((name, i) => phases.push({ name, seconds, ok: oks[i] ?? false, cpuBusy }));
    return oks.every(Boolean);
  };

  // Lint, the type check of the Node packages with the tests, and the web app's each keep one core busy:
  // side by side they take the longest one's time, and each file is checked once (tsconfig.check.json).
  const checks = async (label: string | null): Promise<boolean> => {
    console.log('== lint and format, type checks (side by side; output shown as each ends)');
    const since = performance.now();
    const sides: PhaseTiming[] = [];
    const part = (name: string, steps: Step[]) =>
      runSteps(steps, label ? `${label}: ${name}` : name).then((passed) => {
        sides.push({ name: `  of which ${name}`, seconds: (performance.now() - since) / 1000, ok: passed });
        return passed;
      });
    const passed = await timed(['lint and format + type checks'], async () => [
      (
        await Promise.all([
          part('lint and format', [
            { command: 'npx', args: ['eslint', '.'] },
            { command: 'npx', args: ['prettier', '--check', '.', '--log-level', 'warn'] },
          ]),
          part('types (packages, tests)', [{ command: 'npx', args: ['tsc', '--noEmit', '-p', 'tsconfig.check.json'] }]),
          part('types (web)', [{ command: 'npx', args: ['tsc', '--noEmit', '-p', 'web'] }]),
        ])
      ).every(Boolean),
    ]);
    phases.push(...sides);
    return passed;
  };

  const vitestProject = async (project: string, label: string | null): Promise<boolean> => {
    console.log(`== vitest: ${project}${label ? ' (output shown when it ends)' : ''}`);
    const report = path.join(RESULTS, `vitest-${project}.json`);
    fs.rmSync(report, { force: true });
    const passed = await timed([`vitest ${project}`], async () => [
      await runSteps(
        [
          {
            command: 'npx',
            args: [
              'vitest',
              'run',
              '--project',
              project,
              '--reporter=default',
              '--reporter=json',
              `--outputFile.json=${report}`,
            ],
          },
        ],
        label,
      ),
    ]);
    items.push(...vitestItems(readJson(report), project, ROOT));
    return passed;
  };

  const playwright = async (): Promise<boolean> => {
    console.log('== browser journeys (Playwright, Debian Chromium)');
    const report = path.join(RESULTS, 'playwright.json');
    fs.rmSync(report, { force: true });
    const passed = await timed(['playwright'], async () => [
      await runSteps(
        [
          {
            command: 'npx',
            args: ['playwright', 'test', '-c', 'tests/playwright.config.ts'],
            env: { PLAYWRIGHT_JSON_OUTPUT_FILE: report },
          },
        ],
        null,
      ),
    ]);
    items.push(...playwrightItems(readJson(report), 'tests/e2e'));
    return passed;
  };

  const projects = await vitestProjects();
  const unscheduled = projects.filter((p) => !STAGES.flat(2).includes(p));
  if (unscheduled.length > 0) throw new Error(`vitest projects missing from STAGES: ${unscheduled.join(', ')}`);
  const runPhase = (phase: string, label: string | null): Promise<boolean> =>
    phase === 'checks' ? checks(label) : phase === 'playwright' ? playwright() : vitestProject(phase, label);

  let ok = true;
  for (const stage of STAGES) {
    if (!ok) break;
    const sides = stage.map((side) => side.filter(wanted)).filter((side) => side.length > 0);
    // Side by side, each side's output is buffered and shown as its commands end, labelled with its phase.
    const results = await Promise.all(
      sides.map(async (side) => {
        for (const phase of side) {
          if (!(await runPhase(phase, sides.length > 1 ? phase : null))) return false;
        }
        return true;
      }),
    );
    ok = results.every(Boolean);
  }

  // Wall-clock time, not the phases added up: some phases run side by side.
  const afterInstall = (performance.now() - runStart) / 1000;
  const timings: Timings = {
    startedAt: startedAt.toISOString(),
    afterInstallSeconds: afterInstall,
    budgetSeconds: BUDGET_SECONDS,
    phases: [
      ...(Number.isFinite(installSeconds) ? [{ name: 'install', seconds: installSeconds, ok: true }] : []),
      ...phases,
    ],
    items,
  };
  fs.writeFileSync(path.join(RESULTS, 'timings.json'), `${JSON.stringify(timings, null, 2)}\n`);
  console.log(formatTable(timings));

  const left = await leftoversAfter(runId, ownProcesses());
  if (left.length > 0) {
    console.log('== left behind: processes of this run still alive after it ended');
    for (const l of left)
      console.log(`  pid ${l.pid}${l.ports.length ? ` ports ${l.ports.join(',')}` : ''}: ${l.command.slice(0, 200)}`);
    return 1;
  }
  console.log('== nothing left behind: no process of this run is alive, no port of it is held');
  return ok ? 0 : 1;
}

process.exitCode = await main();
