/**
 * Hostile e-learning packages (issue 23 "Uploads are hostile input"), built at test time: a zip-slip path, a
 * symbolic link, a bomb declaring 12 GB, 100,000 entries, an encrypted entry, two entries whose names differ only
 * in letter case or Unicode form (a case-insensitive look-up would open either) and a PDF renamed .zip. Each is a
 * 422 naming the `file` field, never a 5xx, and leaves nothing stored (no item, no file, no temporary folder).
 */
import fs from 'node:fs';
import os from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DASHBOARD_RESOURCE_MESSAGES as TEXT } from '@portal/contract';
import { signIn, startApi, type Session, type TestApi } from '../harness';
import {
  PDF,
  buildZip,
  declareSizes,
  manyEntriesZip,
  markEncrypted,
  packageZip,
  patchBytes,
  saveItem,
} from './support';

let api: TestApi;
let admin: Session;
let item: Record<string, unknown>;

beforeAll(async () => {
  api = await startApi();
  admin = await signIn(api.app, 'admin');
  const [role, category] = await Promise.all([
    api.prisma.portalRole.findFirstOrThrow({ where: { description: 'Network User' } }),
    api.prisma.resourceCategory.findFirstOrThrow({ where: { name: 'eLearnings', headless: true } }),
  ]);
  item = { kind: 'ELEARNING', title: 'Hostile', categoryId: category.id, portalRoleIds: [role.id] };
});
afterAll(async () => api?.close());

const uploads = () => fs.readdirSync(os.tmpdir()).filter((n) => n.startsWith('portal-upload-'));

async function expectRefused(bytes: Buffer, reason: string): Promise<void> {
  const [items, files, temp] = [await api.prisma.dashboardItem.count(), await api.prisma.storedFile.count(), uploads()];
  const res = await saveItem(api, admin, item, { file: { bytes, name: 'course.zip', type: 'application/zip' } });
  expect(res.statusCode, res.body).toBe(422);
  expect(res.json().fieldErrors).toEqual({ file: [reason] });
  expect(await api.prisma.dashboardItem.count()).toBe(items);
  expect(await api.prisma.storedFile.count()).toBe(files);
  expect(uploads()).toEqual(temp);
}

describe('hostile e-learning packages', () => {
  it('refuses a zip-slip path (../) and an absolute path', async () => {
    const slip = patchBytes(await packageZip('story.html', { 'aa/evil.js': 'x' }), 'aa/evil.js', '../evil.js');
    await expectRefused(slip, TEXT.unsafeEntry);
    const absolute = patchBytes(await packageZip('story.html', { 'xetc/evil': 'x' }), 'xetc/evil', '/etc/evil');
    await expectRefused(absolute, TEXT.unsafeEntry);
  });

  it('refuses a symbolic link', async () => {
    const link = await buildZip([
      { name: 'story.html', data: '<p>course</p>' },
      { name: 'secrets', data: '/etc/passwd', mode: 0o120777 },
    ]);
    await expectRefused(link, TEXT.unsafeEntry);
  });

  it('refuses a bomb declaring 12 GB unpacked', async () => {
    const filler = Buffer.alloc(2 * 1024 * 1024, 0);
    const bomb = declareSizes(
      await buildZip([
        { name: 'story.html', data: '<p>course</p>' },
        { name: 'a.bin', data: filler },
        { name: 'b.bin', data: filler },
        { name: 'c.bin', data: filler },
      ]),
      0xfffffffe,
    );
    await expectRefused(bomb, TEXT.unpackedTooLarge('2.0 GB'));
  });

  it('refuses a package whose entries compress too well (a real bomb under the size limit)', async () => {
    const zeros = await buildZip([
      { name: 'story.html', data: '<p>course</p>' },
      { name: 'zeros.bin', data: Buffer.alloc(64 * 1024 * 1024, 0) },
    ]);
    await expectRefused(zeros, TEXT.ratioTooHigh);
  });

  it('refuses 100,000 entries', async () => {
    await expectRefused(manyEntriesZip(100_000), TEXT.tooManyEntries(10_000));
  });

  it('refuses an encrypted entry', async () => {
    await expectRefused(markEncrypted(await packageZip()), TEXT.unsafeEntry);
  });

  it('refuses two entries whose names differ only in letter case or Unicode form', async () => {
    const page = '<!doctype html><title>x</title>';
    await expectRefused(
      await buildZip([
        { name: 'story.html', data: page },
        { name: 'Story.html', data: `${page}<p>other</p>` },
      ]),
      TEXT.sameNameEntries,
    );
    await expectRefused(
      await buildZip([
        { name: 'index.html', data: page },
        { name: 'media/caf\u00e9.png', data: 'composed' },
        { name: 'media/cafe\u0301.png', data: 'decomposed' },
      ]),
      TEXT.sameNameEntries,
    );
    await expectRefused(
      await buildZip([
        { name: 'index.html', data: page },
        { name: 'Media/a.js', data: '1' },
        { name: 'media/A.JS', data: '2' },
      ]),
      TEXT.sameNameEntries,
    );
  });

  it('refuses a file that is not a zip, named .zip', async () => {
    await expectRefused(PDF, 'notCompressedFile');
    await expectRefused(Buffer.from('PK\u0003\u0004 but not really a zip'), 'notCompressedFile');
  });
});
