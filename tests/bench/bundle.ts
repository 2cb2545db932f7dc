/**
 * What the browser downloads per route, from the built web app (web/dist) and Vite's manifest
 * (web/dist/.vite/manifest.json, `build.manifest` in web/vite.config.ts): the sign-in page loads the entry
 * chunk and its static imports; any other screen loads those plus its lazy chunk and that chunk's static
 * imports. Sizes are gzip level 9, as a server would send them (issue 14: at most 150 KB of JavaScript for
 * the sign-in page).
 */
import fs from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { z } from 'zod';

const ManifestChunk = z.object({
  file: z.string(),
  src: z.string().optional(),
  isEntry: z.boolean().optional(),
  isDynamicEntry: z.boolean().optional(),
  imports: z.array(z.string()).optional(),
  dynamicImports: z.array(z.string()).optional(),
  css: z.array(z.string()).optional(),
});
const Manifest = z.record(z.string(), ManifestChunk);
type Manifest = z.infer<typeof Manifest>;

/** Gzip sizes (bytes) of what one route loads. */
export interface RouteLoad {
  route: string;
  jsGzip: number;
  cssGzip: number;
  files: string[];
}

/** Manifest keys of `key` and everything it imports statically. */
function staticClosure(manifest: Manifest, key: string, into = new Set<string>()): Set<string> {
  if (into.has(key)) return into;
  into.add(key);
  for (const imported of manifest[key]?.imports ?? []) staticClosure(manifest, imported, into);
  return into;
}

function measure(distDir: string, manifest: Manifest, route: string, keys: Set<string>): RouteLoad {
  const files = new Set<string>();
  for (const key of keys) {
    const chunk = manifest[key]!;
    files.add(chunk.file);
    chunk.css?.forEach((css) => files.add(css));
  }
  const gz = (file: string) => gzipSync(fs.readFileSync(path.join(distDir, file)), { level: 9 }).length;
  const sorted = [...files].sort();
  const sum = (ext: string) => sorted.filter((f) => f.endsWith(ext)).reduce((total, f) => total + gz(f), 0);
  return { route, jsGzip: sum('.js'), cssGzip: sum('.css'), files: sorted };
}

/** One file the browser may download, with its gzip size (bytes). */
export interface ChunkSize {
  file: string;
  gzip: number;
}

/**
 * The largest single file (JavaScript or CSS) that any screen loads: every chunk of the manifest (entry,
 * static imports, lazy screens) and its CSS (issue 23 Speed: none over 200 KB gzipped).
 * @throws Error when the manifest is missing.
 */
export function largestChunk(distDir: string): ChunkSize {
  const manifest = readManifest(distDir);
  const files = new Set(Object.values(manifest).flatMap((chunk) => [chunk.file, ...(chunk.css ?? [])]));
  let largest: ChunkSize = { file: '', gzip: 0 };
  for (const file of files) {
    const gzip = gzipSync(fs.readFileSync(path.join(distDir, file)), { level: 9 }).length;
    if (gzip > largest.gzip) largest = { file, gzip };
  }
  return largest;
}

function readManifest(distDir: string): Manifest {
  const file = path.join(distDir, '.vite', 'manifest.json');
  if (!fs.existsSync(file)) throw new Error(`${file} is missing: run npm run build -w web`);
  return Manifest.parse(JSON.parse(fs.readFileSync(file, 'utf8')));
}

/**
 * Measures the sign-in page (the entry's static closure: the sign-in screen is not lazy) and every lazy
 * screen, and returns the sign-in page and the largest route by JavaScript.
 * @throws Error when web/dist or its manifest is missing (run `npm run build -w web`).
 */
export function measureRoutes(distDir: string): { signIn: RouteLoad; largest: RouteLoad } {
  const manifest = readManifest(distDir);
  const entry = Object.keys(manifest).find((key) => manifest[key]!.isEntry);
  if (!entry) throw new Error(`the manifest of ${distDir} names no entry chunk`);
  const shell = staticClosure(manifest, entry);
  const signIn = measure(distDir, manifest, 'sign-in', shell);
  let largest = signIn;
  for (const [key, chunk] of Object.entries(manifest)) {
    if (!chunk.isDynamicEntry) continue;
    const load = measure(distDir, manifest, chunk.src ?? key, staticClosure(manifest, key, new Set(shell)));
    if (load.jsGzip > largest.jsGzip) largest = load;
  }
  return { signIn, largest };
}
