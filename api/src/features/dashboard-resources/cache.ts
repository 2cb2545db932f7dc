/**
 * What the resources' hot reads keep in memory (issue 23 Speed: a person's items p95 < 20 ms with 1,000 items
 * and 50 portal roles; a package's file at ≥ 1,000 req/s): the dashboard's answer by set of portal roles (a
 * person's own roles are read on every call), and which stored file a package's path names. PostgreSQL
 * announces every write to the tables behind them on `dashboard_resources_changed` (migration
 * 20261205000000), and every process drops both when told; while its listener is down nothing is served from
 * memory (NotifiedCache), so a deactivated item or a replaced package is never served by a process that missed it.
 */
import type { FastifyInstance } from 'fastify';
import type { DashboardResources } from '@portal/contract';
import { listenForCache } from '../../shared/pg-listener';
import { NotifiedCache } from '../../shared/notified-cache';

export const RESOURCES_CHANNEL = 'dashboard_resources_changed';

/** A package file's stored identity: its digest, size (bytes) and type. */
export interface ElearningFileMeta {
  sha256: string;
  size: number;
  contentType: string;
}

export interface ResourceCaches {
  /** The dashboard's answer, keyed by dashboardKey. */
  dashboards: NotifiedCache<DashboardResources>;
  /** A package file, keyed by packageFileKey. */
  files: NotifiedCache<ElearningFileMeta>;
}

/** The dashboard's key: ADMIN, or the sorted active portal roles held, and the hour its signed links belong to. */
export const dashboardKey = (isAdmin: boolean, roleIds: readonly number[], nowMs = Date.now()): string =>
  `${Math.floor(nowMs / 3_600_000)}:${isAdmin ? 'admin' : roleIds.join(',')}`;

export const packageFileKey = (itemId: number, path: string): string => `${itemId}/${path}`;

/**
 * Caches for `app`'s resource routes, dropped on every announced change; listening starts now and stops when
 * `app` closes. Resolves once the first LISTEN succeeded or failed (the caches serve only while listening).
 */
export async function listenForResourceChanges(app: FastifyInstance, databaseUrl: string): Promise<ResourceCaches> {
  const caches: ResourceCaches = { dashboards: new NotifiedCache(500), files: new NotifiedCache(20_000) };
  const all = [caches.dashboards, caches.files];
  const listener = listenForCache(
    databaseUrl,
    RESOURCES_CHANNEL,
    { setListening: (listening) => all.forEach((c) => c.setListening(listening)) },
    () => all.forEach((c) => c.clear()),
    (event, err) =>
      event === 'listening'
        ? app.log.info('dashboard resources listener: listening')
        : app.log.warn({ err }, 'dashboard resources listener: connection lost, resources read from PostgreSQL'),
  );
  app.addHook('onClose', async () => {
    all.forEach((c) => c.setListening(false));
    await listener.close();
  });
  await listener.ready;
  return caches;
}
