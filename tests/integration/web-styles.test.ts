/**
 * The web app imports Mantine's styles per component (web/src/app/mantine-styles.ts; issue 20): exactly
 * the files whose classes the built JavaScript uses, after the global ones, in the order of Mantine's full
 * stylesheet. A component used without its file would render unstyled, which no journey would notice, so
 * this reads the built app (`web/dist`, made by the install before the tests) and Mantine's files.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '..', '..');
const STYLES_MODULE = path.join(ROOT, 'web', 'src', 'app', 'mantine-styles.ts');
const ASSETS = path.join(ROOT, 'web', 'dist', 'assets');
const GLOBAL_FILES = ['baseline.css', 'default-css-variables.css', 'global.css'];

/** @mantine/core's package folder, as the web workspace resolves it. */
function mantineCore(): string {
  for (const base of [path.join(ROOT, 'web', 'node_modules'), path.join(ROOT, 'node_modules')]) {
    const dir = path.join(base, '@mantine', 'core');
    if (fs.existsSync(path.join(dir, 'package.json'))) return dir;
  }
  throw new Error('@mantine/core is not installed');
}

/** Mantine's class names (`m_` and 8 hex digits) in `text`. */
const classesIn = (text: string, prefix = ''): Set<string> =>
  new Set([...text.matchAll(new RegExp(`${prefix.replace('.', '\\.')}(m_[0-9a-f]{8})\\b`, 'g'))].map((m) => m[1]!));

/** The per-component files the built app needs, global ones first, in the full stylesheet's order. */
function neededFiles(): string[] {
  const core = mantineCore();
  const full = fs.readFileSync(path.join(core, 'styles.css'), 'utf8');
  const js = fs
    .readdirSync(ASSETS)
    .filter((f) => f.endsWith('.js'))
    .map((f) => fs.readFileSync(path.join(ASSETS, f), 'utf8'))
    .join('\n');
  const used = classesIn(js);
  const dir = path.join(core, 'styles');
  return fs
    .readdirSync(dir)
    .filter((f) => f.endsWith('.css') && !f.endsWith('.layer.css'))
    .map((f) => {
      const css = fs.readFileSync(path.join(dir, f), 'utf8');
      const position = full.indexOf(css.trim().slice(0, 120));
      expect(position, `${f} is not part of Mantine's styles.css`).toBeGreaterThanOrEqual(0);
      const needed = GLOBAL_FILES.includes(f) || [...classesIn(css, '.')].some((c) => used.has(c));
      return { f, position, needed };
    })
    .filter((r) => r.needed)
    .sort((a, b) => a.position - b.position)
    .map((r) => r.f);
}

describe("the web app's Mantine styles", () => {
  it('imports the file of every component the built app uses, and no other, in Mantine order', () => {
    expect(fs.existsSync(ASSETS), 'web/dist is not built (npm run build -w web)').toBe(true);
    const imported = [...fs.readFileSync(STYLES_MODULE, 'utf8').matchAll(/^import '@mantine\/core\/styles\/(.+)';$/gm)];
    const needed = neededFiles();
    expect(needed.length).toBeGreaterThan(GLOBAL_FILES.length);
    expect(
      imported.map((m) => m[1]),
      'web/src/app/mantine-styles.ts must import exactly these files, in this order',
    ).toEqual(needed);
  });
});
