/**
 * The user manual (issue 23): the PDF built from docs/manual (scripts/src/manual/build-pdf.ts, Chromium's
 * page.pdf) and read back with pdfjs: every chapter's title is in its text and is an entry of its outline, and
 * every chapter's pages draw at least as many images as the chapter shows screenshots (at least one each);
 * the API serves it at /manual/user-manual.pdf, public, inline, as application/pdf, and answers 404 where it
 * has not been built.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getDocument, OPS, type PDFDocumentProxy } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { type Chapter, buildManualPdf, manualChapters } from '@portal/scripts/manual';
import { startApi, type TestApi } from '../harness';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'user-manual-'));
const pdfFile = path.join(dir, 'user-manual.pdf');
let chapters: Chapter[];
let pdf: PDFDocumentProxy;
let loading: ReturnType<typeof getDocument> | undefined;

beforeAll(async () => {
  chapters = manualChapters();
  await buildManualPdf({ out: pdfFile, force: true });
  loading = getDocument({ data: new Uint8Array(fs.readFileSync(pdfFile)), verbosity: 0 });
  pdf = await loading.promise;
});

afterAll(async () => {
  await loading?.destroy();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** The text of page `n` (1-based), its items joined by spaces and runs of white space made one. */
async function pageText(n: number): Promise<string> {
  const content = await (await pdf.getPage(n)).getTextContent();
  return content.items
    .map((item) => ('str' in item ? item.str : ''))
    .join(' ')
    .replace(/\s+/g, ' ');
}

/** How many images page `n` paints. */
async function imagesOn(n: number): Promise<number> {
  const ops = await (await pdf.getPage(n)).getOperatorList();
  return ops.fnArray.filter((fn) => fn === OPS.paintImageXObject || fn === OPS.paintInlineImageXObject).length;
}

/** White space removed: Chromium joins a heading's wrapped lines without a space in the outline. */
const squeeze = (text: string) => text.replace(/\s+/g, '');

/** The first page (1-based) of each top-level outline entry, by its title without white space. */
async function outlinePages(): Promise<Map<string, number>> {
  const pages = new Map<string, number>();
  for (const entry of (await pdf.getOutline()) ?? []) {
    const dest = typeof entry.dest === 'string' ? await pdf.getDestination(entry.dest) : entry.dest;
    if (!dest) continue;
    pages.set(squeeze(entry.title), (await pdf.getPageIndex(dest[0] as { num: number; gen: number })) + 1);
  }
  return pages;
}

describe('the user manual PDF', () => {
  it('has the chapters of docs/manual, each showing at least one screenshot that exists', () => {
    expect(chapters.length).toBeGreaterThanOrEqual(10);
    for (const chapter of chapters) expect(chapter.images.length, chapter.file).toBeGreaterThan(0);
  });

  it('holds every chapter title in its text, on the page the outline names for it', async () => {
    const starts = await outlinePages();
    for (const chapter of chapters) {
      const start = starts.get(squeeze(chapter.title));
      expect(start, `outline entry for '${chapter.title}'`).toBeGreaterThan(1);
      expect(await pageText(start!)).toContain(chapter.title);
    }
  });

  it('draws every chapter’s screenshots within the chapter’s pages', async () => {
    const starts = await outlinePages();
    const firstPages = chapters.map((c) => starts.get(squeeze(c.title))!);
    expect(
      [...firstPages].sort((a, b) => a - b),
      'chapters in file order',
    ).toEqual(firstPages);
    for (const [i, chapter] of chapters.entries()) {
      const last = i + 1 < chapters.length ? firstPages[i + 1]! - 1 : pdf.numPages;
      let images = 0;
      for (let n = firstPages[i]!; n <= last; n++) images += await imagesOn(n);
      expect(images, `images in '${chapter.title}' (pages ${firstPages[i]}-${last})`).toBeGreaterThanOrEqual(
        chapter.images.length,
      );
    }
  });
});

describe('GET /manual/user-manual.pdf', () => {
  let api: TestApi;
  let missing: TestApi;

  beforeAll(async () => {
    api = await startApi({ USER_MANUAL_PDF: pdfFile });
    missing = await startApi({ USER_MANUAL_PDF: path.join(dir, 'not-built.pdf') });
  });
  afterAll(async () => {
    await api?.close();
    await missing?.close();
  });

  it('answers the PDF to anyone, inline, without the portal’s content security policy', async () => {
    const res = await api.app.inject({ method: 'GET', url: '/manual/user-manual.pdf' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(res.headers['content-disposition']).toBe('inline; filename="user-manual.pdf"');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['content-security-policy']).toBeUndefined();
    expect(res.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    expect(res.rawPayload.length).toBe(fs.statSync(pdfFile).size);
  });

  it('answers 404 with a sentence where the PDF has not been built', async () => {
    const res = await missing.app.inject({ method: 'GET', url: '/manual/user-manual.pdf' });
    expect(res.statusCode).toBe(404);
    expect(res.body).toContain('The user manual has not been built');
  });
});
