/**
 * `npm test` after install (scripts/test.sh runs install first and passes its seconds): lint and format
 * beside the type checks (each one core), then each vitest project one after another, then the Playwright
 * journeys (on a stack of their own). Stops at the first failing phase. Always ends with the timing table
 * (`timings.ts`), written also to `test-results/timings.json`, and the check that no process of the run is still alive (`leftovers.ts`).
 * Exits 1 when a phase failed or something was left behind.
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
  if (wanted('checks')) console.log('== lint and format, type checks (side by side; output shown as each ends)');
  const since = performance.now();
  const part = (name: string, steps: Step[]) =>
    runSteps(steps, name).then((passed) => {
      sides.push({ name: `  of which ${name}`, seconds: (performance.now() - since) / 1000, ok: passed });
      return passed;
    });
  const sides: PhaseTiming[] = [];
  let ok =
    !wanted('checks') ||
    (await timed(['lint and format + type checks'], async () => [
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
    ]));
  phases.push(...sides);

  // The vitest projects one after another, then the Playwright journeys on their own stack. Side by side they
  // gained nothing: both kept the two cores busy (the table's cpu column, 97-100 %), and the load made
  // transactions outlive their timeouts (docs/decisions.md, "The test suite's budget").
  const vitestTrack = async (): Promise<boolean> => {
    let passed = true;
    for (const project of (await vitestProjects()).filter(wanted)) {
      if (!passed) break;
      console.log(`== vitest: ${project}`);
      const report = path.join(RESULTS, `vitest-${project}.json`);
      fs.rmSync(report, { force: true });
      passed = await timed([`vitest ${project}`], async () => [
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
          null,
        ),
      ]);
      items.push(...vitestItems(readJson(report), project, ROOT));
    }
    return passed;
  };
  const playwrightTrack = async (): Promise<boolean> => {
    if (!wanted('playwright')) return true;
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
  if (ok) ok = await vitestTrack();
  if (ok) ok = await playwrightTrack();

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
