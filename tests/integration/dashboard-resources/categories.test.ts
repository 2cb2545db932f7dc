/**
 * Resource categories (issue 23; 000 §9, 001 §8) against real PostgreSQL: ADMIN only (403 otherwise), the
 * headless Links, Downloads and eLearnings from the migration, a tree, 'Resource category has active child
 * category(ies)' when deactivating or deleting a parent of an active child, the fixed categories kept, 304
 * for no change, and an audit row per change.
 */
import { describe, expect, it } from 'vitest';
import {
  DASHBOARD_RESOURCE_MESSAGES as TEXT,
  DASHBOARD_RESOURCE_PATHS as PATHS,
  type ResourceCategory,
  resourcePath,
} from '@portal/contract';
import { unique, useConfigApi } from '../config-support';

const { api, call, admin, readonly, user } = useConfigApi();
const one = (id: number) => resourcePath(PATHS.category, { id });
const toggle = (id: number, action: string) => resourcePath(PATHS.categoryToggle, { id, action });

describe('resource categories', () => {
  it('are ADMIN’s to read and change (403 otherwise)', async () => {
    expect((await call(null, 'GET', PATHS.categories)).statusCode).toBe(401);
    for (const s of [readonly, user]) {
      expect((await call(s, 'GET', PATHS.categories)).statusCode).toBe(403);
      expect((await call(s, 'POST', PATHS.categories, { name: 'x' })).statusCode).toBe(403);
      expect((await call(s, 'PUT', one(1), { name: 'x' })).statusCode).toBe(403);
      expect((await call(s, 'PUT', toggle(1, 'deactivate'))).statusCode).toBe(403);
      expect((await call(s, 'DELETE', one(1))).statusCode).toBe(403);
    }
  });

  it('start with the three headless categories, which are neither renamed nor deleted', async () => {
    const all = (await call(admin, 'GET', PATHS.categories)).json() as ResourceCategory[];
    const headless = all.filter((c) => c.headless);
    expect(headless.map((c) => c.name)).toEqual(['Links', 'Downloads', 'eLearnings']);
    const links = headless[0]!;
    const rename = await call(admin, 'PUT', one(links.id), { ...links, name: 'Web links' });
    expect(rename.statusCode).toBe(422);
    expect(rename.json().globalErrors).toEqual([TEXT.fixedCategory]);
    expect((await call(admin, 'DELETE', one(links.id))).json().globalErrors).toEqual([TEXT.fixedCategory]);
  });

  it('refuse deactivating or deleting a category with an active child category', async () => {
    const parent = (await call(admin, 'POST', PATHS.categories, { name: unique('Training') })).json();
    const child = (
      await call(admin, 'POST', PATHS.categories, { name: unique('Modules'), parentId: parent.id })
    ).json();
    expect(child).toMatchObject({ parentId: parent.id, active: true, order: 0, headless: false });

    for (const res of [
      await call(admin, 'PUT', toggle(parent.id, 'deactivate')),
      await call(admin, 'DELETE', one(parent.id)),
      await call(admin, 'PUT', one(parent.id), { name: parent.name, active: false }),
    ]) {
      expect(res.statusCode).toBe(422);
      expect(res.json()).toEqual({
        fieldErrors: {},
        globalErrors: ['Resource category has active child category(ies)'],
      });
    }
    const cycle = await call(admin, 'PUT', one(parent.id), { name: parent.name, parentId: child.id });
    expect(cycle.json().fieldErrors).toEqual({ parentId: [TEXT.parentCycle] });

    expect((await call(admin, 'PUT', toggle(child.id, 'deactivate'))).json().active).toBe(false);
    expect((await call(admin, 'PUT', toggle(child.id, 'deactivate'))).statusCode).toBe(304);
    expect((await call(admin, 'PUT', toggle(parent.id, 'deactivate'))).statusCode).toBe(200);
    expect((await call(admin, 'DELETE', one(parent.id))).json().globalErrors).toEqual([TEXT.hasChildren]);
    expect((await call(admin, 'DELETE', one(child.id))).statusCode).toBe(200);
    expect((await call(admin, 'DELETE', one(parent.id))).statusCode).toBe(200);
    expect((await call(admin, 'GET', one(parent.id))).statusCode).toBe(404);

    const audit = await api.prisma.auditEvent.findMany({
      where: { entityType: 'ResourceCategory', entityId: String(parent.id) },
      orderBy: { id: 'asc' },
    });
    expect(audit.map((a) => a.action)).toEqual(['CREATED', 'DEACTIVATED', 'DELETED']);
  });

  it('answer 422 with the spec keys for bad bodies and 304 when nothing changed', async () => {
    const bad = await call(admin, 'POST', PATHS.categories, { name: '', parentId: 999999, order: -1 });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().fieldErrors).toEqual({ name: ['required'], order: ['invalid'] });
    const orphan = await call(admin, 'POST', PATHS.categories, { name: unique('Orphan'), parentId: 999999 });
    expect(orphan.json().fieldErrors).toEqual({ parentId: ['nonexistent'] });
    const made = (await call(admin, 'POST', PATHS.categories, { name: unique('Same'), order: 3 })).json();
    expect((await call(admin, 'PUT', one(made.id), { name: made.name, order: 3 })).statusCode).toBe(304);
    expect((await call(admin, 'DELETE', one(made.id))).statusCode).toBe(200);
  });
});
