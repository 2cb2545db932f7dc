/**
 * The file store shared by every API process (issue 23): two API instances, each with its own connections, on
 * one database. A file saved through one is served by the other (a 2.5 MiB file: three chunks, streamed in
 * order); the same bytes are stored once; deleting an item keeps a file another item uses and removes it with
 * the last one; an e-learning package saved through one is served by the other's e-learning origin. Each
 * process keeps the dashboard's answers and which file a package's path names in memory (cache.ts): a change
 * made through one process reaches the other through PostgreSQL's notifications, polled with a deadline.
 */
import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { DASHBOARD_RESOURCE_PATHS as PATHS, type DashboardItem, resourcePath } from '@portal/contract';
import { buildElearningServer } from '@portal/api';
import { caller, signIn, startApi, type Session, type TestApi } from '../harness';
import { until } from '../lifecycle/support';
import { packageZip, saveItem } from './support';

const ORIGIN = { ELEARNING_ORIGIN: 'http://localhost:18081', ELEARNING_URL_KEY: 'k'.repeat(40) };
let one: TestApi;
let two: TestApi;
let elearningOfTwo: FastifyInstance;
let adminOne: Session;
let readerTwo: Session;
let item: Record<string, unknown>;

beforeAll(async () => {
  [one, two] = [await startApi(ORIGIN), await startApi(ORIGIN)];
  elearningOfTwo = await buildElearningServer(two.deps);
  adminOne = await signIn(one.app, 'admin');
  readerTwo = await signIn(two.app, 'readonly');
  const role = await one.prisma.portalRole.findFirstOrThrow({ where: { description: 'User Support Read-Only' } });
  const downloads = await one.prisma.resourceCategory.findFirstOrThrow({ where: { name: 'Downloads' } });
  item = { kind: 'DOWNLOAD', title: 'Shared', categoryId: downloads.id, portalRoleIds: [role.id] };
});
afterAll(async () => {
  await elearningOfTwo?.close();
  await one?.close();
  await two?.close();
});

const sha = (b: Buffer) => crypto.createHash('sha256').update(b).digest('hex');

describe('files shared across API processes', () => {
  it('serves through one process what another stored, stores the same bytes once, removes them with the last user', async () => {
    const bytes = crypto.randomBytes(2.5 * 1024 * 1024);
    const first = (await saveItem(one, adminOne, item, { file: { bytes, name: 'data.bin' } })).json() as DashboardItem;
    const second = (await saveItem(one, adminOne, item, { file: { bytes, name: 'copy.bin' } })).json() as DashboardItem;
    expect(await one.prisma.storedFile.count({ where: { sha256: sha(bytes) } })).toBe(1);
    expect(await one.prisma.storedFileChunk.count({ where: { sha256: sha(bytes) } })).toBe(3);

    const served = await caller(two.app)(readerTwo, 'GET', first.openUrl);
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-length']).toBe(String(bytes.length));
    expect(sha(served.rawPayload)).toBe(sha(bytes));

    const del = (id: number) => caller(one.app)(adminOne, 'DELETE', resourcePath(PATHS.item, { id }));
    expect((await del(first.id)).statusCode).toBe(200);
    expect(await two.prisma.storedFile.count({ where: { sha256: sha(bytes) } })).toBe(1);
    expect((await caller(two.app)(readerTwo, 'GET', second.openUrl)).statusCode).toBe(200);
    expect((await del(second.id)).statusCode).toBe(200);
    expect(await two.prisma.storedFile.count({ where: { sha256: sha(bytes) } })).toBe(0);
    expect(await two.prisma.storedFileChunk.count({ where: { sha256: sha(bytes) } })).toBe(0);
  });

  it('serves a package saved through one process from the other’s e-learning origin, not from the portal', async () => {
    const category = await one.prisma.resourceCategory.findFirstOrThrow({ where: { name: 'eLearnings' } });
    const res = await saveItem(
      one,
      adminOne,
      { ...item, kind: 'ELEARNING', categoryId: category.id },
      { file: { bytes: await packageZip('index.html'), name: 'course.zip' } },
    );
    const course = res.json() as DashboardItem;
    expect(course.openUrl.startsWith(`${ORIGIN.ELEARNING_ORIGIN}/elearning/${course.id}/`)).toBe(true);
    const path = new URL(course.openUrl).pathname;
    const page = await elearningOfTwo.inject({ url: path });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-security-policy']).toBeUndefined();
    expect(page.body).toContain('<title>Course</title>');
    const again = await elearningOfTwo.inject({ url: path, headers: { 'if-none-match': page.headers.etag as string } });
    expect(again.statusCode).toBe(304);
    // The portal's own origin does not serve packages when an e-learning origin is configured.
    expect((await two.app.inject({ url: path })).body).not.toContain('<title>Course</title>');

    // Replacing the package removes the files only the old one used.
    const old = await one.prisma.dashboardItem.findUniqueOrThrow({ where: { id: course.id } });
    const replaced = await saveItem(
      one,
      adminOne,
      { ...item, kind: 'ELEARNING', categoryId: category.id },
      { file: { bytes: await packageZip('story.html', { 'new.txt': 'new' }), name: 'v2.zip' } },
      course.id,
    );
    expect(replaced.json().entryPoint).toBe('story.html');
    expect(await one.prisma.storedFile.count({ where: { sha256: old.fileSha256! } })).toBe(0);
    // The other process had the old path's file in memory: the announced change drops it.
    await until(
      async () => (await elearningOfTwo.inject({ url: path })).statusCode === 404,
      'the replaced package’s old entry point to be gone from the other process',
      10_000,
    );
  });

  it('drops the other process’s dashboard answer when an item is deactivated or its roles change', async () => {
    const links = await one.prisma.resourceCategory.findFirstOrThrow({ where: { name: 'Links' } });
    const link = {
      ...item,
      kind: 'LINK',
      title: 'Cached link',
      categoryId: links.id,
      url: 'https://www.example.org/cached',
    };
    const saved = (await saveItem(one, adminOne, link)).json() as DashboardItem;
    const titles = async () =>
      ((await caller(two.app)(readerTwo, 'GET', PATHS.dashboard)).json() as { items: DashboardItem[] }).items.map(
        (i) => i.title,
      );
    await until(async () => (await titles()).includes('Cached link'), 'the new link on the other process', 10_000);
    // Served from memory now; the deactivation through the first process must reach it.
    expect(await titles()).toContain('Cached link');
    const off = await caller(one.app)(
      adminOne,
      'PUT',
      resourcePath(PATHS.itemToggle, { id: saved.id, action: 'deactivate' }),
    );
    expect(off.statusCode).toBe(200);
    await until(
      async () => !(await titles()).includes('Cached link'),
      'the deactivated link gone on the other process',
      10_000,
    );
  });
});
