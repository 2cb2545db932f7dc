/**
 * The hostile-input walk of the upload routes (issue 23 "The upload routes join the hostile-input suite
 * (multipart bodies too)"): POST /rest/secure/system_mgmt/dashboard_items and PUT .../{id}, as every persona,
 * with multipart bodies written by hand so they can be broken: unknown, repeated and oddly named parts,
 * hostile field values, file names with `..`, NUL and 300 characters, files that are a package, a zip-slip
 * package, a PNG, random bytes or 1 MB of text, bodies cut short, a wrong or missing boundary. The JSON bodies of
 * the same routes are walked by routes.test.ts from the route catalogue. No answer may be 5xx, no body may
 * carry a stack trace, a server path or a raw database error, a refused request may not change a single row,
 * and no upload leaves a temporary folder behind.
 *
 * Fixed seed, bounded runs (HOSTILE_RUNS per route, 10 by default), on its own clone of the seeded database.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { DASHBOARD_RESOURCE_PATHS as PATHS, resourcePath } from '@portal/contract';
import { createPrisma, type PrismaClient } from '@portal/db';
import { PNG, packageZip, patchBytes } from '../dashboard-resources/support';
import { startApi, type TestApi } from '../harness';
import { HOSTILE_VALUES, ONE_MB } from './arbitraries';
import { type ChangeWatch, cloneDatabase, leakIn, type PersonaName, personaPool, watchChanges } from './walker-support';

const SEED = 23_2026;
const RUNS = Number(process.env.HOSTILE_RUNS ?? 10);
const PERSONAS: PersonaName[] = ['anonymous', 'user', 'readonly', 'admin', 'admin'];

let api: TestApi;
let prisma: PrismaClient;
let dropClone: () => Promise<void>;
let personas: ReturnType<typeof personaPool>;
let changes: ChangeWatch;
let itemId: number;
let validItem: Record<string, unknown>;
let files: Buffer[];

beforeAll(async () => {
  const clone = await cloneDatabase();
  dropClone = clone.drop;
  prisma = createPrisma(clone.url);
  api = await startApi(
    { DATABASE_URL: clone.url, TEMPORAL_TASK_QUEUE: `hostile-upload-${crypto.randomBytes(4).toString('hex')}` },
    () => prisma,
  );
  changes = await watchChanges(prisma);
  personas = personaPool(api.app, prisma, api.directory);
  const category = await prisma.resourceCategory.create({ data: { name: `Hostile uploads ${Date.now()}` } });
  const role = await prisma.portalRole.findFirstOrThrow({ where: { description: 'Network User' } });
  itemId = (
    await prisma.dashboardItem.create({
      data: { kind: 'LINK', title: 'Hostile upload', url: 'https://www.example.org', categoryId: category.id },
    })
  ).id;
  validItem = { kind: 'ELEARNING', title: 'Walked', categoryId: category.id, portalRoleIds: [role.id] };
  const course = await packageZip();
  files = [
    course,
    patchBytes(await packageZip('story.html', { 'aa/evil.js': 'x' }), 'aa/evil.js', '../evil.js'),
    PNG,
    crypto.randomBytes(4096),
    Buffer.from(ONE_MB),
  ];
}, 240_000);

afterAll(async () => {
  await api?.close();
  await prisma?.$disconnect();
  await dropClone?.();
});

interface Part {
  name: string;
  file: boolean;
  filename: string;
  /** For a field: a JSON text; for a file: one of `files` by index. */
  value: string | number;
  type: string;
}

interface Case {
  persona: PersonaName;
  parts: Part[];
  /** none, the body cut at a fraction of its length, a boundary other than the declared one, no boundary. */
  breakage: { kind: 'none' } | { kind: 'cut'; at: number } | { kind: 'wrongBoundary' } | { kind: 'noBoundary' };
}

const strings = HOSTILE_VALUES.filter((v): v is string => typeof v === 'string');

const partArb = (): fc.Arbitrary<Part> =>
  fc.record({
    name: fc.constantFrom('item', 'item', 'file', 'file', 'image', 'other', '', 'item"; filename="x', 'ìtem'),
    file: fc.boolean(),
    filename: fc.constantFrom('course.zip', '../../etc/passwd', 'a\u0000.png', 'x'.repeat(300), '', 'résumé.pdf'),
    value: fc.oneof(
      fc.constant('$valid'),
      fc.constantFrom(...HOSTILE_VALUES).map((v) => JSON.stringify(v)),
      fc.constantFrom(...strings),
      fc.integer({ min: 0, max: 4 }),
    ),
    type: fc.constantFrom('application/zip', 'image/png', 'text/html', 'application/octet-stream', ''),
  });

const caseArb: fc.Arbitrary<Case> = fc.record({
  persona: fc.constantFrom(...PERSONAS),
  parts: fc.array(partArb(), { minLength: 0, maxLength: 4 }),
  breakage: fc.oneof(
    { arbitrary: fc.constant({ kind: 'none' as const }), weight: 4 },
    { arbitrary: fc.double({ min: 0, max: 1, noNaN: true }).map((at) => ({ kind: 'cut' as const, at })), weight: 1 },
    { arbitrary: fc.constant({ kind: 'wrongBoundary' as const }), weight: 1 },
    { arbitrary: fc.constant({ kind: 'noBoundary' as const }), weight: 1 },
  ),
});

/** The body of `c`, written by hand, and its content type. */
function bodyOf(c: Case): { payload: Buffer; contentType: string } {
  const boundary = `----hostile${crypto.randomBytes(6).toString('hex')}`;
  const chunks: Buffer[] = [];
  for (const p of c.parts) {
    const disposition = `form-data; name="${p.name}"${p.file ? `; filename="${p.filename}"` : ''}`;
    const head = `--${boundary}\r\nContent-Disposition: ${disposition}\r\n${p.type ? `Content-Type: ${p.type}\r\n` : ''}\r\n`;
    const value =
      p.value === '$valid'
        ? Buffer.from(JSON.stringify(validItem))
        : typeof p.value === 'number'
          ? p.file
            ? files[p.value]!
            : Buffer.from(String(p.value))
          : Buffer.from(p.value);
    chunks.push(Buffer.from(head), value, Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  let payload = Buffer.concat(chunks);
  let contentType = `multipart/form-data; boundary=${boundary}`;
  if (c.breakage.kind === 'cut') payload = payload.subarray(0, Math.floor(payload.length * c.breakage.at));
  if (c.breakage.kind === 'wrongBoundary') contentType = 'multipart/form-data; boundary=not-the-one';
  if (c.breakage.kind === 'noBoundary') contentType = 'multipart/form-data';
  return { payload, contentType };
}

const uploads = () => fs.readdirSync(os.tmpdir()).filter((n) => n.startsWith('portal-upload-')).length;
const seen = new Map<string, number>();

describe('the upload routes, every persona, hostile multipart bodies (issue 23)', () => {
  for (const route of [
    { method: 'POST' as const, url: () => PATHS.items },
    { method: 'PUT' as const, url: () => resourcePath(PATHS.item, { id: itemId }) },
  ]) {
    it(`${route.method} ${route.method === 'POST' ? PATHS.items : PATHS.item}`, async () => {
      await fc.assert(
        fc.asyncProperty(caseArb, async (c) => {
          const persona = await personas.get(c.persona);
          const { payload, contentType } = bodyOf(c);
          const headers: Record<string, string> = { 'content-type': contentType };
          if (persona.session) {
            headers.cookie = persona.session.cookie;
            headers['x-xsrf-token'] = persona.session.xsrf;
          }
          const [before, temp] = [await changes.mark(), uploads()];
          const res = await api.app.inject({ method: route.method, url: route.url(), headers, payload });
          const what = `${route.method} ${JSON.stringify(c).slice(0, 300)}: ${res.statusCode} ${res.body.slice(0, 300)}`;
          seen.set(`${c.persona} ${res.statusCode}`, (seen.get(`${c.persona} ${res.statusCode}`) ?? 0) + 1);
          expect(res.statusCode, what).toBeLessThan(500);
          expect(leakIn(res.body), what).toBeNull();
          if (res.statusCode >= 400 || res.statusCode === 304) {
            expect(await changes.changedSince(before), what).toEqual([]);
          }
          expect(uploads(), what).toBe(temp);
        }),
        { seed: SEED, numRuns: RUNS * 3, endOnFailure: true },
      );
    });
  }

  it('reached the handler: refusals of the body itself, not only of the guards', () => {
    const count = (pred: (persona: string, status: number) => boolean) =>
      [...seen].filter(([k]) => pred(k.split(' ')[0]!, Number(k.split(' ')[1]))).reduce((n, [, v]) => n + v, 0);
    expect(count((p, s) => p === 'admin' && s === 422)).toBeGreaterThan(0);
    expect(count((p, s) => p === 'user' && s === 403)).toBeGreaterThan(0);
    expect(count((p, s) => p === 'anonymous' && s === 401)).toBeGreaterThan(0);
  });
});
