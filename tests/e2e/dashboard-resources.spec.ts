/**
 * The dashboard's resources (issue 23; 000 §6, §9; 001 §8):
 * - an administrator creates a category, then a link, a download (with a picture) and an e-learning package
 *   (a zip with story.html built here with yazl) for one portal role, meeting the spec's refusals on the way
 *   (protocolRequired in the browser; notCompressedFile and noIndexOrStoryFile from the server);
 * - a user holding that role sees them on the dashboard (the headless categories without headings, the new one
 *   under its heading) and opens each: the link's target and the e-learning page in new tabs, the download's
 *   file;
 * - a user without the role does not see them;
 * - every new screen passes axe at desktop and phone sizes.
 * Its role and user are its own (portal row + directory entry made here), so other journeys are not disturbed.
 */
import crypto from 'node:crypto';
import { expect, test, type Page } from '@playwright/test';
import { formatFileSize } from '@portal/contract';
import { createPrisma, type PrismaClient } from '@portal/db';
import { addPerson, DirectoryConfigSchema } from '@portal/directory';
import { ZipFile } from 'yazl';
import { pick, shot, signIn, signInWith, signOut } from './support';

const tag = crypto.randomBytes(3).toString('hex');
const portalEnv = () => JSON.parse(process.env.E2E_PORTAL_ENV ?? '{}') as Record<string, string>;

const ROLE = `E2E Resource Readers ${tag}`;
const CATEGORY = `E2E Training ${tag}`;
const LINK = { title: `Network site ${tag}`, url: `https://network-${tag}.example.org/welcome` };
const DOWNLOAD = {
  title: `Protocol template ${tag}`,
  name: `protocol-${tag}.txt`,
  body: `Protocol ${tag}\n`.repeat(100),
};
const COURSE = { title: `GCP course ${tag}`, text: `Good Clinical Practice ${tag}` };
/** A 1×1 PNG: a picture by its bytes, not its name. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);

/** A zip of `files` (name → content), made in memory. */
function zip(files: Record<string, string>): Promise<Buffer> {
  const archive = new ZipFile();
  for (const [name, content] of Object.entries(files)) archive.addBuffer(Buffer.from(content), name);
  archive.end();
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    archive.outputStream.on('data', (c: Buffer) => chunks.push(c));
    archive.outputStream.on('end', () => resolve(Buffer.concat(chunks)));
    archive.outputStream.on('error', reject);
  });
}

interface Reader {
  username: string;
  password: string;
}

let prisma: PrismaClient;
let reader: Reader;

/** A user holding 'Network User' and the journey's own portal role, with a directory entry to sign in with. */
async function makeReader(): Promise<Reader> {
  const network = await prisma.portalRole.findFirstOrThrow({ where: { description: 'Network User' } });
  const role = await prisma.portalRole.create({ data: { description: ROLE, permissions: ['USER'] } });
  const username = `resreader${tag}`;
  const password = `Res-${tag}-Pw9!x`;
  const user = await prisma.portalUser.create({
    data: {
      username,
      firstName: 'Rhea',
      lastName: `Reader${tag}`,
      email: `${username}@e2e.portal.test`,
      portalRoles: { create: [{ portalRoleId: network.id }, { portalRoleId: role.id }] },
    },
  });
  const uuid = await addPerson(DirectoryConfigSchema.parse(portalEnv()), {
    username,
    firstName: 'Rhea',
    lastName: `Reader${tag}`,
    email: `${username}@e2e.portal.test`,
    gecos: '',
    uidNumber: 72_000 + user.id,
    password,
  });
  await prisma.portalUser.update({ where: { id: user.id }, data: { uuid } });
  return { username, password };
}

test.beforeAll(async () => {
  prisma = createPrisma(portalEnv().DATABASE_URL!);
  reader = await makeReader();
});
test.afterAll(async () => {
  await prisma?.$disconnect();
});

async function signInAs(page: Page, reader: Reader) {
  await signInWith(page, reader);
}

/** A success notification (several may be on screen at once). */
const notice = (page: Page, text: string) => expect(page.getByText(text, { exact: true }).first()).toBeVisible();

async function openTab(page: Page, tab: 'Dashboard Categories' | 'Dashboard Items') {
  await page.getByRole('link', { name: 'Configure', exact: true }).click();
  await page.getByRole('tab', { name: tab }).click();
}

/** Chooses a file for the file field labelled `label` through the browser's file dialog. */
async function choose(page: Page, label: string, file: { name: string; mimeType: string; buffer: Buffer }) {
  const chooser = page.waitForEvent('filechooser');
  await page.getByRole('button', { name: label, exact: true }).click();
  await (await chooser).setFiles(file);
}

/** Opens 'Create Dashboard Item' and fills what every kind has; the journey's role is ticked. */
async function newItem(page: Page, kind: 'Link' | 'Download' | 'eLearning', title: string, category?: string) {
  await openTab(page, 'Dashboard Items');
  await page.getByRole('link', { name: 'Create Dashboard Item' }).click();
  await expect(page.getByRole('heading', { name: 'Add Dashboard Item', level: 1 })).toBeVisible();
  await page.getByRole('radio', { name: kind, exact: true }).check();
  await page.getByRole('textbox', { name: 'Title' }).fill(title);
  await page.getByRole('textbox', { name: 'Description (optional)' }).fill(`${kind} for the journey's role.`);
  if (category) await pick(page, page.getByRole('combobox', { name: 'Category' }), category);
  await page.getByRole('checkbox', { name: ROLE }).check();
}

const create = (page: Page) => page.getByRole('button', { name: 'Create Dashboard Item' }).click();

test('an administrator shares a link, a download and an e-learning package with one portal role', async ({
  page,
  context,
}) => {
  // Four kinds of change, each screen checked with axe: longer than one screen's journey.
  test.setTimeout(480_000);
  // The link's target is on the internet, which the machine does not reach: the browser gets a stand-in page.
  await context.route(`https://network-${tag}.example.org/**`, (route) =>
    route.fulfill({ contentType: 'text/html', body: `<title>Network ${tag}</title><h1>Welcome ${tag}</h1>` }),
  );

  await test.step('category', async () => {
    await signIn(page, 'admin');
    await openTab(page, 'Dashboard Categories');
    await expect(page.getByRole('list', { name: 'Resource categories' })).toContainText('eLearnings');
    await shot(page, 'resources-01-categories');
    await page.getByRole('link', { name: 'Create Category' }).click();
    await expect(page.getByRole('heading', { name: 'Add Category', level: 1 })).toBeVisible();
    await page.getByRole('button', { name: 'Create Category' }).click();
    await expect(page.getByText('Name is required')).toBeVisible();
    await page.getByRole('textbox', { name: 'Name' }).fill(CATEGORY);
    await shot(page, 'resources-02-add-category');
    await page.getByRole('button', { name: 'Create Category' }).click();
    await notice(page, `${CATEGORY} saved`);
    await expect(page.getByRole('link', { name: CATEGORY, exact: true })).toBeVisible();
  });

  await test.step('a category with an active child cannot be deactivated; delete asks first', async () => {
    const child = `E2E Modules ${tag}`;
    await page.getByRole('link', { name: 'Create Category' }).click();
    await page.getByRole('textbox', { name: 'Name' }).fill(child);
    await pick(page, page.getByRole('combobox', { name: 'Parent Category (optional)' }), CATEGORY);
    await page.getByRole('button', { name: 'Create Category' }).click();
    await notice(page, `${child} saved`);
    await page.getByRole('button', { name: `Deactivate ${CATEGORY}` }).click();
    await expect(page.getByText('Resource category has active child category(ies)')).toBeVisible();
    await shot(page, 'resources-02b-active-children');
    await page.getByRole('button', { name: `Delete ${child}` }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete Category?' });
    await dialog.getByRole('button', { name: 'Delete Category' }).click();
    await notice(page, 'Deleted');
    await expect(page.getByRole('link', { name: child, exact: true })).toHaveCount(0);
  });

  await test.step('link: the browser refuses a URL without a protocol', async () => {
    await newItem(page, 'Link', LINK.title);
    await page.getByRole('textbox', { name: 'URL' }).fill(`network-${tag}.example.org`);
    await create(page);
    await expect(page.getByText('URL must have a valid protocol')).toBeVisible();
    await page.getByRole('textbox', { name: 'URL' }).fill(LINK.url);
    await shot(page, 'resources-03-add-link');
    await create(page);
    await notice(page, `${LINK.title} saved`);
    await expect(page).toHaveURL(/tab=dashboardItems$/);
  });

  await test.step('download with a picture, in the new category', async () => {
    await newItem(page, 'Download', DOWNLOAD.title, CATEGORY);
    await choose(page, 'File', { name: DOWNLOAD.name, mimeType: 'text/plain', buffer: Buffer.from(DOWNLOAD.body) });
    await choose(page, 'Picture (optional)', { name: 'cover.png', mimeType: 'image/png', buffer: PNG });
    await expect(page.getByRole('list', { name: 'Preview of the card' })).toContainText(DOWNLOAD.title);
    await create(page);
    await notice(page, `${DOWNLOAD.title} saved`);
  });

  await test.step('e-learning: the server refuses what is not a zip, and a zip without story.html', async () => {
    await newItem(page, 'eLearning', COURSE.title);
    // A new item starts in its kind's headless category.
    await expect(page.getByRole('combobox', { name: 'Category' })).toHaveValue('eLearnings');
    const fake = { name: 'course.zip', mimeType: 'application/zip', buffer: Buffer.from('not a zip at all') };
    await choose(page, 'Package', fake);
    await create(page);
    await expect(page.getByText('Package is not a recognized compressed file type (e.g. .zip)')).toBeVisible();
    await expect(page.getByText('Unable to save dashboard item due to one or more errors.')).toBeVisible();
    await shot(page, 'resources-04-package-refused');

    const noStory = await zip({ 'pages/story.html': '<p>nested</p>', 'readme.txt': 'no entry point' });
    await choose(page, 'Package', { name: 'course.zip', mimeType: 'application/zip', buffer: noStory });
    await create(page);
    await expect(
      page.getByText('Package is missing an index.html or story.html file in its root folder'),
    ).toBeVisible();

    const story = `<!doctype html><html lang="en"><title>${COURSE.title}</title><h1>${COURSE.text}</h1></html>`;
    const good = await zip({ 'story.html': story, 'story_content/data.js': 'var lesson = 1;' });
    await choose(page, 'Package', { name: `gcp-${tag}.zip`, mimeType: 'application/zip', buffer: good });
    await create(page);
    await notice(page, `${COURSE.title} saved`);
    await page.getByRole('textbox', { name: 'Filter dashboard items' }).fill(tag);
    await expect(page.getByRole('table', { name: 'Dashboard items' }).getByRole('row')).toHaveCount(4);
    await shot(page, 'resources-05-items');
  });

  await test.step('the item editor: what is stored, replace file, preview', async () => {
    await page.getByRole('link', { name: DOWNLOAD.title, exact: true }).click();
    await expect(page.getByRole('heading', { name: 'Edit Dashboard Item', level: 1 })).toBeVisible();
    await expect(page.getByTestId('stored-file').first()).toContainText(`Current: ${DOWNLOAD.name}`);
    await expect(page.getByRole('img', { name: DOWNLOAD.title })).toBeVisible();
    await shot(page, 'resources-06-edit-download');
    await signOut(page);
  });

  await test.step('a user with the role sees each and opens it', async () => {
    await signInAs(page, reader);
    const resources = page.getByRole('region', { name: 'Resources', exact: true });
    await expect(resources.getByRole('link', { name: new RegExp(LINK.title) })).toBeVisible();
    // Links and eLearnings are shown without headings (000 §9); the new category under its name.
    await expect(resources.getByRole('heading', { name: 'Links' })).toHaveCount(0);
    await expect(resources.getByRole('heading', { name: 'eLearnings' })).toHaveCount(0);
    await expect(resources.getByRole('heading', { name: CATEGORY })).toBeVisible();
    await expect(resources.getByRole('img', { name: DOWNLOAD.title })).toBeVisible();
    await shot(page, 'resources-07-dashboard');

    const link = resources.getByRole('link', { name: new RegExp(LINK.title) });
    await expect(link).toHaveAttribute('rel', 'noopener noreferrer');
    const linkTab = context.waitForEvent('page');
    await link.click();
    const opened = await linkTab;
    await expect(opened.getByRole('heading', { name: `Welcome ${tag}` })).toBeVisible();
    expect(opened.url()).toBe(LINK.url);
    await opened.close();

    const download = page.waitForEvent('download');
    await resources.getByRole('link', { name: new RegExp(DOWNLOAD.title) }).click();
    const file = await download;
    expect(file.suggestedFilename()).toBe(DOWNLOAD.name);
    const saved = await file.createReadStream();
    const chunks: Buffer[] = [];
    for await (const chunk of saved) chunks.push(chunk as Buffer);
    expect(Buffer.concat(chunks).toString()).toBe(DOWNLOAD.body);
    await expect(resources.getByRole('link', { name: new RegExp(DOWNLOAD.title) })).toHaveAccessibleName(
      `${DOWNLOAD.title} (download, ${formatFileSize(Buffer.byteLength(DOWNLOAD.body))})`,
    );

    const courseTab = context.waitForEvent('page');
    await resources.getByRole('link', { name: new RegExp(COURSE.title) }).click();
    const course = await courseTab;
    await expect(course.getByRole('heading', { name: COURSE.text })).toBeVisible();
    expect(new URL(course.url()).origin).not.toBe(new URL(page.url()).origin);
    expect(course.url()).toMatch(/\/story\.html$/);
    await course.close();
    await signOut(page);
  });

  await test.step('a user without the role does not see them', async () => {
    await signIn(page, 'user');
    await expect(page.getByRole('region', { name: 'Resources', exact: true })).toBeVisible();
    for (const title of [LINK.title, DOWNLOAD.title, COURSE.title]) {
      await expect(page.getByText(title)).toHaveCount(0);
    }
    await expect(page.getByRole('heading', { name: CATEGORY })).toHaveCount(0);
  });
});

test.describe('at phone size', () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test('every resource screen is accessible', async ({ page }) => {
    await signIn(page, 'admin');
    await expect(page.getByRole('region', { name: 'Resources', exact: true })).toBeVisible();
    await shot(page, 'resources-phone-dashboard');
    await page.goto('/app/configure/?tab=resourceCategories');
    await expect(page.getByRole('list', { name: 'Resource categories' })).toBeVisible();
    await shot(page, 'resources-phone-categories');
    await page.goto('/app/configure/resource-categories/new');
    await expect(page.getByRole('heading', { name: 'Add Category', level: 1 })).toBeVisible();
    await shot(page, 'resources-phone-add-category');
    await page.goto('/app/configure/?tab=dashboardItems');
    await expect(page.getByRole('table', { name: 'Dashboard items' })).toBeVisible();
    await shot(page, 'resources-phone-items');
    await page.goto('/app/configure/dashboard-items/new');
    await expect(page.getByRole('heading', { name: 'Add Dashboard Item', level: 1 })).toBeVisible();
    await shot(page, 'resources-phone-add-item');
  });
});
