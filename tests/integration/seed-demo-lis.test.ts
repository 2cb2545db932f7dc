/**
 * The demo seed's laboratory system (issue 41, prisma/seed/demo-lis.ts), on a copy of the seeded database (a
 * connection written here must not make the other files' access changes provision): the system the global
 * setup's seed made without a target, offered by its two study roles and held by no seeded person; with the
 * target, its connection written enabled with the token sealed under PROVISIONING_KEY and the holders noted;
 * later starts writing only the URL and the token, keeping what an administrator changed.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPrisma, openText, PROVISIONING_SEAL_PURPOSE, type PrismaClient } from '@portal/db';
import { DEMO_LIS_NAME, DEMO_LIS_ROLES, registerDemoLis } from '@portal/db/seed';
import { cloneDatabase } from './hostile/walker-support';

let clone: Awaited<ReturnType<typeof cloneDatabase>>;
let prisma: PrismaClient;
const key = 'k'.repeat(40);
const token = 't'.repeat(32);

beforeAll(async () => {
  clone = await cloneDatabase();
  prisma = createPrisma(clone.url);
});

afterAll(async () => {
  await prisma?.$disconnect();
  await clone?.drop();
});

const roleNamesOf = async (systemId: number) =>
  (await prisma.studyRoleSystem.findMany({ where: { systemId }, include: { studyRole: true } }))
    .map((r) => r.studyRole.roleName)
    .sort();

describe("the demo seed's laboratory system", () => {
  it('is registered by the seed without a target, offered by its roles and held by no one', async () => {
    const systems = await prisma.systemAccess.findMany({ where: { systemName: DEMO_LIS_NAME } });
    expect(systems).toHaveLength(1);
    const id = systems[0]!.id;
    expect(await roleNamesOf(id)).toEqual([...DEMO_LIS_ROLES].sort());
    expect(await prisma.provisioningConnection.findUnique({ where: { systemAccessId: id } })).toBeNull();
    expect(await prisma.userAccess.count({ where: { systemAccessIds: { has: id } } })).toBe(0);
    // Again without a target: nothing changes.
    expect(await registerDemoLis(prisma, null)).toEqual({
      systemAccessId: id,
      created: false,
      connected: false,
      noted: 0,
    });
    expect(await prisma.systemAccess.count({ where: { systemName: DEMO_LIS_NAME } })).toBe(1);
  });

  it('with the target: an enabled connection, the token sealed, its holders noted; later only URL and token', async () => {
    const { id } = await prisma.systemAccess.findFirstOrThrow({ where: { systemName: DEMO_LIS_NAME } });
    const holder = await prisma.userAccess.findFirstOrThrow({
      where: { inactive: false, roleName: 'Clinical Research Associate', user: { inactive: false } },
    });
    await prisma.userAccess.update({
      where: { id: holder.id },
      data: { systemAccessIds: [...holder.systemAccessIds, id] },
    });

    const first = await registerDemoLis(prisma, { url: 'http://127.0.0.1:8091/', token, key });
    expect(first).toEqual({ systemAccessId: id, created: false, connected: true, noted: 1 });
    const connection = await prisma.provisioningConnection.findUniqueOrThrow({ where: { systemAccessId: id } });
    expect(connection).toMatchObject({ baseUrl: 'http://127.0.0.1:8091', enabled: true, accessAs: 'EXTENSION' });
    expect(openText(key, PROVISIONING_SEAL_PURPOSE, connection.tokenSealed!)).toBe(token);
    const notices = await prisma.provisioningNotice.findMany({ where: { systemAccessId: id } });
    expect(notices.map((n) => n.portalUserId)).toEqual([holder.portalUserId]);

    // An administrator turns it off and asks for deletion; the next start moves the target and changes the token.
    await prisma.provisioningConnection.update({
      where: { systemAccessId: id },
      data: { enabled: false, deleteOnRemoval: true },
    });
    const next = await registerDemoLis(prisma, { url: 'http://127.0.0.1:9191', token: 'u'.repeat(32), key });
    expect(next).toEqual({ systemAccessId: id, created: false, connected: true, noted: 0 });
    const moved = await prisma.provisioningConnection.findUniqueOrThrow({ where: { systemAccessId: id } });
    expect(moved).toMatchObject({ baseUrl: 'http://127.0.0.1:9191', enabled: false, deleteOnRemoval: true });
    expect(openText(key, PROVISIONING_SEAL_PURPOSE, moved.tokenSealed!)).toBe('u'.repeat(32));
  });

  it('is created, after the last system and with its roles, on a database that has none', async () => {
    const { id } = await prisma.systemAccess.findFirstOrThrow({ where: { systemName: DEMO_LIS_NAME } });
    await prisma.provisioningConnection.deleteMany({ where: { systemAccessId: id } });
    await prisma.studyRoleSystem.deleteMany({ where: { systemId: id } });
    await prisma.systemAccess.delete({ where: { id } });
    const last = (await prisma.systemAccess.aggregate({ _max: { sort: true } }))._max.sort!;

    const made = await registerDemoLis(prisma, null);
    expect(made.created).toBe(true);
    const system = await prisma.systemAccess.findUniqueOrThrow({ where: { id: made.systemAccessId } });
    expect(system.sort).toBe(last + 1);
    expect(await roleNamesOf(system.id)).toEqual([...DEMO_LIS_ROLES].sort());
    expect((await registerDemoLis(prisma, null)).created).toBe(false);
  });
});
