/**
 * Demo dashboard resources (issue 23 "Demo"): a few real items per persona, so a newcomer sees them after
 * `npm run up`: a link to the network's public site, a PDF download and a small e-learning package with
 * story.html for every demo portal role, and a category with its heading holding a link for the staff roles.
 * The files are the fixtures beside this file (the package both as uploaded, a .zip, and unpacked), stored
 * through the file store as the API stores them. Runs once per database (its own SeedRun record), also on a
 * database seeded before the resources existed.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { PrismaClient } from '../src';
import { type PendingFile, storeFiles } from '../src/file-store';

export const RESOURCES_SEED_NAME = 'dashboard-resources-v1';

const FIXTURES = path.join(import.meta.dirname, 'fixtures');
const EVERYONE = ['Administrator', 'User Support', 'User Support Read-Only', 'Network User'];
const STAFF = ['Administrator', 'User Support', 'User Support Read-Only'];
const PACKAGE_TYPES: Record<string, string> = {
  html: 'text/html; charset=utf-8',
  css: 'text/css; charset=utf-8',
  js: 'text/javascript; charset=utf-8',
};

function pending(file: string): PendingFile {
  const bytes = fs.readFileSync(file);
  return { path: file, size: bytes.length, sha256: crypto.createHash('sha256').update(bytes).digest('hex') };
}

/** Seeds the demo resources once. @returns false when they were seeded before. */
export async function seedDashboardResources(prisma: PrismaClient, log: (line: string) => void): Promise<boolean> {
  if (await prisma.seedRun.findUnique({ where: { name: RESOURCES_SEED_NAME } })) return false;
  log('seeding dashboard resources (a link, a PDF download and an e-learning package per persona)');
  const roles = await prisma.portalRole.findMany({ select: { id: true, description: true } });
  const roleIds = (names: string[]) => roles.filter((r) => names.includes(r.description)).map((r) => r.id);
  const headless = new Map(
    (await prisma.resourceCategory.findMany({ where: { headless: true } })).map((c) => [c.name, c.id]),
  );

  const pdf = pending(path.join(FIXTURES, 'portal-quick-reference.pdf'));
  const zip = pending(path.join(FIXTURES, 'portal-orientation.zip'));
  const unpackedDir = path.join(FIXTURES, 'portal-orientation');
  const unpacked = fs
    .readdirSync(unpackedDir)
    .sort()
    .map((name) => ({ name, ...pending(path.join(unpackedDir, name)) }));

  await prisma.$transaction(
    async (tx) => {
      await storeFiles(tx, [pdf, zip, ...unpacked]);
      const item = async (data: Parameters<typeof tx.dashboardItem.create>[0]['data'], roleNames: string[]) => {
        const row = await tx.dashboardItem.create({ data });
        await tx.dashboardItemPortalRole.createMany({
          data: roleIds(roleNames).map((portalRoleId) => ({ itemId: row.id, portalRoleId })),
        });
        return row;
      };
      await item(
        {
          kind: 'LINK',
          title: 'Frontier Science',
          description: "The network's public site: news, studies and contacts.",
          categoryId: headless.get('Links')!,
          url: 'https://www.frontierscience.org',
        },
        EVERYONE,
      );
      await item(
        {
          kind: 'DOWNLOAD',
          title: 'Portal quick reference',
          description: 'Signing in, requesting access and changing your password, on one page.',
          categoryId: headless.get('Downloads')!,
          fileSha256: pdf.sha256,
          fileName: 'portal-quick-reference.pdf',
          fileSize: BigInt(pdf.size),
          fileContentType: 'application/pdf',
        },
        EVERYONE,
      );
      const course = await item(
        {
          kind: 'ELEARNING',
          title: 'Portal orientation',
          description: 'A three-step introduction to the portal (resumes where you left off).',
          categoryId: headless.get('eLearnings')!,
          fileSha256: zip.sha256,
          fileName: 'portal-orientation.zip',
          fileSize: BigInt(zip.size),
          fileContentType: 'application/zip',
          entryPoint: 'story.html',
        },
        EVERYONE,
      );
      await tx.elearningFile.createMany({
        data: unpacked.map((f) => ({
          itemId: course.id,
          path: f.name,
          sha256: f.sha256,
          size: f.size,
          contentType: PACKAGE_TYPES[f.name.split('.').pop()!] ?? 'application/octet-stream',
        })),
      });
      const staff = await tx.resourceCategory.create({ data: { name: 'Reviewer resources', sort: 10 } });
      await item(
        {
          kind: 'LINK',
          title: 'ICH E6 Good Clinical Practice',
          description: 'The guideline the review of access requests follows.',
          categoryId: staff.id,
          url: 'https://www.ich.org/page/efficacy-guidelines',
        },
        STAFF,
      );
      await tx.seedRun.create({ data: { name: RESOURCES_SEED_NAME } });
    },
    { timeout: 60_000, maxWait: 10_000 },
  );
  return true;
}
