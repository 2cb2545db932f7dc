/**
 * Builds the Node services and the workspace packages they load into each package's `dist/` (issue 14,
 * docs/decisions.md "Compiled services"): one esbuild ESM bundle per entry, dependencies and the other
 * workspace packages left as imports (`packages: 'external'`, resolved by Node through their `exports`),
 * linked source maps for `node --enable-source-maps`, and the worker's workflow bundle built ahead of time.
 *
 * A package's entries are read from its package.json `exports` (`development` → a source file, `default` →
 * `./dist/<name>.js`), plus the process entry points listed here. A package whose `dist/` is newer than
 * every input (its sources, package.json, and for the workflow bundle the workflows' and contract's
 * sources) is skipped, so a second run takes milliseconds.
 *
 * CLI: `tsx scripts/src/build.ts [--force]`.
 */
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { type Plugin, build, stop as stopEsbuild } from 'esbuild';
import { repoPath } from './paths';

/** A workspace package to build: its folder, its source folders, entries beyond its exports. */
interface PackageSpec {
  dir: string;
  sources: string[];
  /** Process entry points (`dist/<key>.js` ← source file), not exported. */
  mains?: Record<string, string>;
  /** Builds the workflow bundle into `dist/workflow-bundle.js` (the worker). */
  workflowBundle?: boolean;
}

/** Build order: a package comes after the workspace packages it imports. */
export const PACKAGES: readonly PackageSpec[] = [
  { dir: 'contract', sources: ['src'] },
  { dir: 'directory', sources: ['src'] },
  { dir: 'scim', sources: ['src'] },
  { dir: 'prisma', sources: ['src', 'seed', 'generated'], mains: { 'seed-main': 'seed/main.ts' } },
  { dir: 'workflows', sources: ['src'] },
  { dir: 'worker', sources: ['src'], mains: { main: 'src/main.ts' }, workflowBundle: true },
  { dir: 'api', sources: ['src'], mains: { main: 'src/main.ts' } },
];

/** Where the built services start: `node --enable-source-maps <entry>`. */
export const SERVICE_ENTRIES = {
  worker: repoPath('worker', 'dist', 'main.js'),
  api: repoPath('api', 'dist', 'main.js'),
  seed: repoPath('prisma', 'dist', 'seed-main.js'),
} as const;

/** The file name of the worker's prebuilt workflow bundle inside worker/dist. */
export const WORKFLOW_BUNDLE_FILE = 'workflow-bundle.js';

type ExportTarget = string | { development?: string; default?: string };

/** Maps `dist/<name>.js` output names to source files from a package.json `exports` object. */
export function entriesFromExports(exportsField: Record<string, ExportTarget>): Record<string, string> {
  const entries: Record<string, string> = {};
  for (const target of Object.values(exportsField)) {
    if (typeof target === 'string' || !target.development || !target.default) continue;
    const out = /^\.\/dist\/(.+)\.js$/.exec(target.default);
    if (!out?.[1]) throw new Error(`export ${target.default} is not ./dist/<name>.js`);
    entries[out[1]] = target.development;
  }
  return entries;
}

/** Newest modification time (ms) of any file under `paths` (0 when none exists). */
function newestMtime(paths: string[]): number {
  let newest = 0;
  const visit = (p: string): void => {
    if (!fs.existsSync(p)) return;
    const stat = fs.statSync(p);
    if (stat.isDirectory()) {
      for (const name of fs.readdirSync(p)) {
        if (!name.endsWith('.test.ts')) visit(path.join(p, name));
      }
    } else newest = Math.max(newest, stat.mtimeMs);
  };
  paths.forEach(visit);
  return newest;
}

/** The stamp written last by a successful build of a package. */
const stampOf = (dir: string): string => repoPath(dir, 'dist', '.built');

function isFresh(spec: PackageSpec, inputs: string[]): boolean {
  const stamp = stampOf(spec.dir);
  return fs.existsSync(stamp) && fs.statSync(stamp).mtimeMs >= newestMtime(inputs);
}

/** Builds the worker's workflow bundle (webpack, Temporal's bundler) from the workflows' sources. */
async function buildWorkflowBundle(outDir: string): Promise<void> {
  const { bundleWorkflowCode } = await import('@temporalio/worker');
  const { code } = await bundleWorkflowCode({
    workflowsPath: repoPath('workflows', 'src', 'index.ts'),
    // The tracing interceptors (issue 24; WORKFLOW_TRACING_MODULE of @portal/workflows/telemetry, whose built
    // entry may not exist yet while this builds it).
    workflowInterceptorModules: [
      createRequire(import.meta.url).resolve('@temporalio/interceptors-opentelemetry/lib/workflow-interceptors'),
    ],
    logger: { trace() {}, debug() {}, info() {}, warn: console.warn, error: console.error, log() {} },
  });
  fs.writeFileSync(path.join(outDir, WORKFLOW_BUNDLE_FILE), code);
}

/**
 * Deep imports into CommonJS packages without `exports` (`@temporalio/common/lib/time`) resolve only
 * through CommonJS's extension search; Node's ESM loader needs the file name, so the import is rewritten to
 * the file that `require.resolve` finds (`@temporalio/common/lib/time.js`) and stays external.
 */
const deepImportExtensions: Plugin = {
  name: 'deep-import-extensions',
  setup(b) {
    b.onResolve({ filter: /^(@[^/]+\/)?[^./@][^/]*\/[^@]/ }, (args) => {
      if (args.path.startsWith('@portal/') || path.extname(args.path)) return undefined;
      let resolved: string;
      try {
        resolved = createRequire(path.join(args.resolveDir, 'x.js')).resolve(args.path);
      } catch {
        return undefined;
      }
      const ext = path.extname(resolved);
      return resolved.endsWith(`${args.path}${ext}`) ? { path: `${args.path}${ext}`, external: true } : undefined;
    });
  },
};

async function buildPackage(spec: PackageSpec): Promise<void> {
  const root = repoPath(spec.dir);
  const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as {
    exports?: Record<string, ExportTarget>;
  };
  const entries = { ...entriesFromExports(pkg.exports ?? {}), ...spec.mains };
  const outdir = path.join(root, 'dist');
  fs.rmSync(outdir, { recursive: true, force: true });
  await build({
    absWorkingDir: root,
    entryPoints: Object.entries(entries).map(([out, src]) => ({ out, in: src })),
    outdir,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node24',
    packages: 'external',
    plugins: [deepImportExtensions],
    sourcemap: 'linked',
    chunkNames: 'chunks/[name]-[hash]',
    logLevel: 'warning',
  });
  if (spec.workflowBundle) await buildWorkflowBundle(outdir);
  fs.writeFileSync(stampOf(spec.dir), `${new Date().toISOString()}\n`);
}

/**
 * Builds every package whose `dist/` is older than its inputs (all of them with `force`), in dependency
 * order. Safe to call on every start: an up-to-date tree costs a few file stats.
 * @returns the folders that were built.
 * @throws Error with esbuild's or webpack's message when a build fails.
 */
export async function buildServices(opts: { force?: boolean; log?: (line: string) => void } = {}): Promise<string[]> {
  const built: string[] = [];
  try {
    for (const spec of PACKAGES) {
      // The build script (target, options) and the lockfile (the Temporal bundle inlines dependencies) are
      // inputs of every package too: a new runtime target or dependency rebuilds what was built before it.
      const inputs = [
        ...spec.sources.map((s) => repoPath(spec.dir, s)),
        repoPath(spec.dir, 'package.json'),
        repoPath('package-lock.json'),
        repoPath('scripts', 'src', 'build.ts'),
      ];
      if (spec.workflowBundle) inputs.push(repoPath('workflows', 'src'), repoPath('contract', 'src'));
      if (!opts.force && isFresh(spec, inputs)) continue;
      opts.log?.(`building ${spec.dir}/dist`);
      await buildPackage(spec);
      built.push(spec.dir);
    }
  } finally {
    // esbuild keeps a service process alive for later builds; a supervisor must not leave it behind.
    await stopEsbuild();
  }
  return built;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const started = Date.now();
  buildServices({ force: process.argv.includes('--force'), log: (l) => console.log(`[build] ${l}`) })
    .then((built) =>
      console.log(`[build] ${built.length ? `built ${built.join(', ')}` : 'up to date'} in ${Date.now() - started} ms`),
    )
    .catch((err: unknown) => {
      console.error(err instanceof Error ? err.message : err);
      process.exit(1);
    });
}
