/**
 * The user manual as a PDF (issue 23): docs/manual/NN-*.md, one chapter per file in file-name order, each
 * starting with its `# ` title, rendered with `marked` into one HTML document (its screenshots from
 * docs/manual/screens embedded as data URIs) and printed by Chromium (Playwright's `page.pdf`): A4, a title
 * page with the contents, each chapter on a new page, page numbers, the chapters as the PDF's outline and a
 * tagged (accessible) PDF. Needs no running stack, only Debian's Chromium (CHROMIUM_PATH, default
 * /usr/bin/chromium). The PDF is not committed: `npm run build` and scripts/install.sh build it into
 * docs/manual/dist/user-manual.pdf, which the API serves at /manual/user-manual.pdf.
 *
 * CLI: `tsx scripts/src/manual/build-pdf.ts [--force] [--out <file>]` (skips the build when the PDF is newer
 * than every chapter, screenshot and this file).
 */
import fs from 'node:fs';
import path from 'node:path';
import { Marked } from 'marked';
import { chromium } from 'playwright-core';
import { repoPath } from '../paths';

/** The manual's sources. */
export const MANUAL_DIR = repoPath('docs', 'manual');
/** Where `npm run build` writes the PDF (the API's default USER_MANUAL_PDF). */
export const MANUAL_PDF = path.join(MANUAL_DIR, 'dist', 'user-manual.pdf');
const TITLE = 'Portal Gateway: User Manual';

/** One chapter: its Markdown file, its `# ` title and the screenshots (paths relative to docs/manual) it shows. */
export interface Chapter {
  file: string;
  title: string;
  images: string[];
  markdown: string;
}

/**
 * The chapters in order (docs/manual/NN-*.md).
 * @throws Error when a chapter has no `# ` title on its first line or refers to a picture that does not exist.
 */
export function manualChapters(dir = MANUAL_DIR): Chapter[] {
  return fs
    .readdirSync(dir)
    .filter((name) => /^\d\d-.+\.md$/.test(name))
    .sort()
    .map((name) => {
      const markdown = fs.readFileSync(path.join(dir, name), 'utf8');
      const title = /^# (.+)\n/.exec(markdown)?.[1]?.trim();
      if (!title) throw new Error(`${name} does not start with a '# ' title`);
      const images = [...markdown.matchAll(/!\[[^\]]*\]\(([^)\s]+)\)/g)].map((m) => m[1]!);
      for (const image of images) {
        if (!fs.existsSync(path.join(dir, image))) throw new Error(`${name} shows ${image}, which does not exist`);
      }
      return { file: name, title, images, markdown };
    });
}

const STYLE = `
  @page { size: A4; margin: 18mm 16mm 20mm 16mm; }
  /* No ligatures: the PDF's text then reads 'fi' as two letters (search, copy, screen readers). */
  body { font-family: 'DejaVu Sans', 'Liberation Sans', Arial, sans-serif; font-size: 10.5pt; line-height: 1.45; color: #1a1a1a;
    font-variant-ligatures: none; font-feature-settings: 'liga' 0, 'clig' 0; }
  h1 { font-size: 20pt; margin: 0 0 10pt; color: #0b4f8a; }
  h2 { font-size: 13.5pt; margin: 16pt 0 6pt; }
  h3 { font-size: 11.5pt; margin: 12pt 0 4pt; }
  section.chapter { break-before: page; }
  img { display: block; max-width: 100%; max-height: 150mm; margin: 8pt auto; border: 1px solid #8c8c8c; }
  p, li { orphans: 3; widows: 3; }
  img, table, blockquote { break-inside: avoid; }
  table { border-collapse: collapse; margin: 6pt 0; }
  th, td { border: 1px solid #b0b0b0; padding: 3pt 6pt; text-align: left; vertical-align: top; }
  blockquote { margin: 8pt 0; padding: 4pt 10pt; border-left: 3pt solid #0b4f8a; background: #eef4fa; }
  code { font-family: 'DejaVu Sans Mono', monospace; font-size: 9.5pt; }
  .cover { text-align: left; padding-top: 50mm; }
  .cover h1 { font-size: 28pt; }
  .cover ol { font-size: 12pt; line-height: 1.8; }
`;

const escapeHtml = (text: string) =>
  text.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!);

/** The whole manual as one HTML document (screenshots inlined). */
export function manualHtml(chapters: Chapter[], dir = MANUAL_DIR): string {
  const marked = new Marked({
    renderer: {
      image({ href, text }) {
        const data = fs.readFileSync(path.join(dir, href)).toString('base64');
        return `<img src="data:image/png;base64,${data}" alt="${escapeHtml(text)}">`;
      },
    },
  });
  const contents = chapters.map((c) => `<li>${escapeHtml(c.title)}</li>`).join('');
  const body = chapters
    .map((c) => `<section class="chapter">${marked.parse(c.markdown, { async: false })}</section>`)
    .join('\n');
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(TITLE)}</title>
<style>${STYLE}</style></head><body>
<div class="cover"><p>Portal Gateway</p><p style="font-size:28pt;font-weight:700;margin:0 0 18pt">User Manual</p>
<p>For everyone who uses the portal: people who request access, reviewers, read-only staff, LAO staff who
request access for others, and administrators.</p><p><strong>Contents</strong></p><ol>${contents}</ol></div>
${body}</body></html>`;
}

/** Newest modification time (ms) of the manual's sources and of this builder. */
function sourcesMtime(dir: string): number {
  const files = [
    ...fs.readdirSync(dir).map((n) => path.join(dir, n)),
    ...fs.readdirSync(path.join(dir, 'screens')).map((n) => path.join(dir, 'screens', n)),
    import.meta.filename,
  ];
  return Math.max(...files.filter((f) => fs.statSync(f).isFile()).map((f) => fs.statSync(f).mtimeMs));
}

/**
 * Renders the PDF to `out` (default docs/manual/dist/user-manual.pdf); skipped when `out` is newer than every
 * source, unless `force`. @returns whether it was built. @throws Error when a chapter is malformed or
 * Chromium fails.
 */
export async function buildManualPdf({
  out = MANUAL_PDF,
  force = false,
  dir = MANUAL_DIR,
}: { out?: string; force?: boolean; dir?: string } = {}): Promise<boolean> {
  if (!force && fs.existsSync(out) && fs.statSync(out).mtimeMs > sourcesMtime(dir)) return false;
  const chapters = manualChapters(dir);
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-sync'],
  });
  try {
    const page = await browser.newPage();
    await page.setContent(manualHtml(chapters, dir), { waitUntil: 'load' });
    fs.mkdirSync(path.dirname(out), { recursive: true });
    const tmp = `${out}.${process.pid}.tmp`;
    await page.pdf({
      path: tmp,
      format: 'A4',
      printBackground: true,
      outline: true,
      tagged: true,
      displayHeaderFooter: true,
      headerTemplate: '<span></span>',
      footerTemplate: `<div style="font-size:8pt;width:100%;text-align:center;color:#555">${escapeHtml(TITLE)} · page <span class="pageNumber"></span> of <span class="totalPages"></span></div>`,
      margin: { top: '18mm', bottom: '20mm', left: '16mm', right: '16mm' },
    });
    // Written whole, then renamed: the API never serves half a file.
    fs.renameSync(tmp, out);
  } finally {
    await browser.close();
  }
  return true;
}

if (process.argv[1] && path.resolve(process.argv[1]) === import.meta.filename) {
  const args = process.argv.slice(2);
  const outIndex = args.indexOf('--out');
  const out = outIndex >= 0 ? path.resolve(args[outIndex + 1] ?? '') : MANUAL_PDF;
  const started = Date.now();
  buildManualPdf({ out, force: args.includes('--force') })
    .then((built) =>
      console.log(
        built
          ? `[manual] ${path.relative(process.cwd(), out)} built in ${((Date.now() - started) / 1000).toFixed(1)} s`
          : `[manual] ${path.relative(process.cwd(), out)}: up to date`,
      ),
    )
    .catch((err: unknown) => {
      console.error(`[manual] ${err instanceof Error ? err.message : String(err)}`);
      process.exit(1);
    });
}
