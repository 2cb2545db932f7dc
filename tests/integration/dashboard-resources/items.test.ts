/**
 * Dashboard items (issue 23; 000 §5, §6, §9; 001 §6, §8) against real PostgreSQL: ADMIN only edits (401 / 403
 * otherwise, nothing written), each validation key on each kind (protocolRequired, invalidDomain, notImage,
 * notCompressedFile, noIndexOrStoryFile, required), visibility by portal role, a download's headers, an
 * e-learning package served unpacked under its signed path and sandboxed without an e-learning origin, the
 * audit rows, and that a refusal stores nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DASHBOARD_RESOURCE_PATHS as PATHS,
  type DashboardItem,
  type DashboardResources,
  REASONS,
  resourcePath,
} from '@portal/contract';
import { caller, signIn, startApi, type Session, type TestApi } from '../harness';
import { unique } from '../config-support';
import { PDF, PNG, packageZip, saveItem } from './support';

let api: TestApi;
let admin: Session;
let readonly: Session;
let user: Session;
let call: ReturnType<typeof caller>;
const roles: Record<string, number> = {};
let links: number;
let downloads: number;
let elearnings: number;

beforeAll(async () => {
  // No e-learning origin: the API serves packages itself, sandboxed.
  api = await startApi({ ELEARNING_ORIGIN: '', ELEARNING_PORT: '' });
  call = caller(api.app);
  admin = await signIn(api.app, 'admin');
  readonly = await signIn(api.app, 'readonly');
  user = await signIn(api.app, 'user');
  for (const r of await api.prisma.portalRole.findMany()) roles[r.description] = r.id;
  const cats = await api.prisma.resourceCategory.findMany({ where: { headless: true } });
  const id = (name: string) => cats.find((c) => c.name === name)!.id;
  [links, downloads, elearnings] = [id('Links'), id('Downloads'), id('eLearnings')];
});
afterAll(async () => api?.close());

const link = (over: Record<string, unknown> = {}) => ({
  kind: 'LINK',
  title: unique('Link'),
  description: 'A link',
  categoryId: links,
  portalRoleIds: [roles['User Support Read-Only']],
  url: 'https://www.example.org/page',
  ...over,
});

const countItems = () => api.prisma.dashboardItem.count();
const countFiles = () => api.prisma.storedFile.count();

describe('dashboard items: who may call', () => {
  it('needs a session (401) and ADMIN to read or change the configuration (403), and writes nothing then', async () => {
    const before = await countItems();
    expect((await call(null, 'GET', PATHS.items)).statusCode).toBe(401);
    expect((await call(null, 'GET', PATHS.dashboard)).statusCode).toBe(401);
    for (const s of [readonly, user]) {
      expect((await call(s, 'GET', PATHS.items)).statusCode).toBe(403);
      expect((await call(s, 'GET', PATHS.limits)).statusCode).toBe(403);
      expect((await call(s, 'GET', resourcePath(PATHS.item, { id: 1 }))).statusCode).toBe(403);
      expect((await saveItem(api, s, link())).statusCode).toBe(403);
      expect((await saveItem(api, s, link(), {}, 1)).statusCode).toBe(403);
      expect((await call(s, 'PUT', resourcePath(PATHS.itemToggle, { id: 1, action: 'deactivate' }))).statusCode).toBe(
        403,
      );
      expect((await call(s, 'DELETE', resourcePath(PATHS.item, { id: 1 }))).statusCode).toBe(403);
    }
    const denied = await saveItem(api, { ...readonly, xsrf: 'wrong' }, link());
    expect(denied.statusCode).toBe(403);
    expect(await countItems()).toBe(before);
  });
});

describe('dashboard items: validation keys on each kind', () => {
  it('refuses a link without a valid protocol or top-level domain (422, nothing stored)', async () => {
    const before = await countItems();
    const cases: [string, string][] = [
      ['www.example.org', 'protocolRequired'],
      ['ftp://example.org/file', 'protocolRequired'],
      ['javascript:alert(1)', 'protocolRequired'],
      ['https://intranet/page', 'invalidDomain'],
      ['https://127.0.0.1/page', 'invalidDomain'],
      ['', 'required'],
    ];
    for (const [url, key] of cases) {
      const res = await saveItem(api, admin, link({ url }));
      expect(res.statusCode, url).toBe(422);
      expect(res.json().fieldErrors, url).toEqual({ url: [key] });
    }
    expect(REASONS.protocolRequired).toBe('must have a valid protocol');
    expect(await countItems()).toBe(before);
  });

  it('refuses a picture that is not an image by its bytes, on every kind (notImage)', async () => {
    const before = await countFiles();
    const fakePng = { bytes: Buffer.from('<svg onload="alert(1)"/>'), name: 'picture.png', type: 'image/png' };
    const zip = await packageZip();
    for (const [item, file] of [
      [link(), undefined],
      [link({ kind: 'DOWNLOAD', categoryId: downloads }), { bytes: PDF, name: 'a.pdf' }],
      [link({ kind: 'ELEARNING', categoryId: elearnings }), { bytes: zip, name: 'course.zip' }],
    ] as const) {
      const res = await saveItem(api, admin, item, { image: fakePng, ...(file && { file }) });
      expect(res.statusCode).toBe(422);
      expect(res.json().fieldErrors.image).toEqual(['notImage']);
    }
    expect(await countFiles()).toBe(before);
  });

  it('requires the file of a download and a package, and refuses a package that is not a zip or has no entry page', async () => {
    const download = link({ kind: 'DOWNLOAD', categoryId: downloads });
    expect((await saveItem(api, admin, download)).json().fieldErrors).toEqual({ file: ['required'] });
    const course = link({ kind: 'ELEARNING', categoryId: elearnings });
    expect((await saveItem(api, admin, course)).json().fieldErrors).toEqual({ file: ['required'] });
    const notZip = await saveItem(api, admin, course, { file: { bytes: PDF, name: 'course.zip' } });
    expect(notZip.json().fieldErrors).toEqual({ file: ['notCompressedFile'] });
    const noEntry = await saveItem(api, admin, course, {
      file: { bytes: await packageZip('home.html'), name: 'c.zip' },
    });
    expect(noEntry.statusCode).toBe(422);
    expect(noEntry.json().fieldErrors).toEqual({ file: ['noIndexOrStoryFile'] });
    const nested = await saveItem(api, admin, course, {
      file: { bytes: await packageZip('course/index.html'), name: 'c.zip' },
    });
    expect(nested.json().fieldErrors).toEqual({ file: ['noIndexOrStoryFile'] });
  });

  it('answers 422 for a body that is not multipart, a missing or broken item part and unknown roles', async () => {
    const json = await call(admin, 'POST', PATHS.items, link());
    expect(json.statusCode).toBe(422);
    expect(json.json().fieldErrors).toEqual({ item: ['required'] });
    expect((await saveItem(api, admin, '{not json')).json().fieldErrors).toEqual({ item: ['invalid'] });
    const bad = await saveItem(api, admin, { kind: 'VIDEO', title: '', categoryId: 0, portalRoleIds: [] });
    expect(bad.statusCode).toBe(422);
    expect(Object.keys(bad.json().fieldErrors).sort()).toEqual(['categoryId', 'kind', 'portalRoleIds', 'title']);
    const missing = await saveItem(api, admin, link({ categoryId: 999999, portalRoleIds: [999999] }));
    expect(missing.json().fieldErrors).toEqual({ categoryId: ['nonexistent'], portalRoleIds: ['nonexistent'] });
  });
});

describe('dashboard items: saved, seen and served', () => {
  it('shows a person the items of their portal roles only (ADMIN all), and audits each change', async () => {
    const staff = (
      await saveItem(api, admin, link(), { image: { bytes: PNG, name: 'p.png' } })
    ).json() as DashboardItem;
    expect(staff).toMatchObject({ kind: 'LINK', hasImage: true, openUrl: 'https://www.example.org/page' });
    const nobody = await api.prisma.portalRole.create({
      data: { description: unique('Nobody'), permissions: ['USER'] },
    });
    const hidden = (await saveItem(api, admin, link({ portalRoleIds: [nobody.id] }))).json() as DashboardItem;

    const seen = async (s: Session) =>
      ((await call(s, 'GET', PATHS.dashboard)).json() as DashboardResources).items.map((i) => i.id);
    expect(await seen(readonly)).toContain(staff.id);
    expect(await seen(readonly)).not.toContain(hidden.id);
    expect(await seen(user)).not.toContain(staff.id);
    expect(await seen(admin)).toEqual(expect.arrayContaining([staff.id, hidden.id]));

    const picture = await call(readonly, 'GET', staff.imageUrl!);
    expect(picture.statusCode).toBe(200);
    expect(picture.headers['content-type']).toBe('image/png');
    expect(picture.rawPayload.equals(PNG)).toBe(true);
    expect((await call(user, 'GET', staff.imageUrl!)).statusCode).toBe(404);

    const off = await call(admin, 'PUT', resourcePath(PATHS.itemToggle, { id: staff.id, action: 'deactivate' }));
    expect(off.json().active).toBe(false);
    expect(await seen(readonly)).not.toContain(staff.id);
    const audit = await api.prisma.auditEvent.findMany({
      where: { entityType: 'DashboardItem', entityId: String(staff.id) },
      orderBy: { id: 'asc' },
    });
    expect(audit.map((a) => a.action)).toEqual(['CREATED', 'DEACTIVATED']);
  });

  it('serves a download as an attachment with its stored type and nosniff, to those who see it', async () => {
    const res = await saveItem(api, admin, link({ kind: 'DOWNLOAD', categoryId: downloads }), {
      file: { bytes: PDF, name: '../Guide v2.pdf', type: 'text/html' },
    });
    expect(res.statusCode, res.body).toBe(200);
    const item = res.json() as DashboardItem;
    expect(item.file).toEqual({ name: 'Guide v2.pdf', size: PDF.length, contentType: 'application/pdf' });
    const file = await call(readonly, 'GET', item.openUrl);
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-disposition']).toBe(
      `attachment; filename="Guide v2.pdf"; filename*=UTF-8''Guide%20v2.pdf`,
    );
    expect(file.headers['content-type']).toBe('application/pdf');
    expect(file.headers['x-content-type-options']).toBe('nosniff');
    expect(file.rawPayload.equals(PDF)).toBe(true);
    expect((await call(user, 'GET', item.openUrl)).statusCode).toBe(404);
  });

  it('serves an e-learning package unpacked under its signed path, sandboxed without an e-learning origin', async () => {
    const res = await saveItem(api, admin, link({ kind: 'ELEARNING', categoryId: elearnings }), {
      file: { bytes: await packageZip(), name: 'course.zip' },
    });
    expect(res.statusCode, res.body).toBe(200);
    const item = res.json() as DashboardItem;
    expect(item.entryPoint).toBe('story.html');
    expect(item.openUrl).toMatch(new RegExp(`^/elearning/${item.id}/\\d+\\.[\\w-]{32}/story\\.html$`));
    const page = await api.app.inject({ url: item.openUrl });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(page.headers['content-security-policy']).toMatch(/^sandbox allow-scripts/);
    expect(page.headers['content-security-policy']).not.toMatch(/allow-same-origin/);
    const script = await api.app.inject({ url: item.openUrl.replace('story.html', 'js/course.js') });
    expect(script.body).toBe('document.title = "Course loaded";');
    expect(script.headers['x-content-type-options']).toBe('nosniff');
    const forged = item.openUrl.replace(/\/(\d+)\.[\w-]{32}\//, '/$1.' + 'A'.repeat(32) + '/');
    expect((await api.app.inject({ url: forged })).statusCode).toBe(404);
    expect((await api.app.inject({ url: item.openUrl.replace('story.html', '..%2F..%2Fx') })).statusCode).toBe(404);
  });
});
