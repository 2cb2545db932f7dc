/**
 * Serving e-learning packages unpacked (issue 23): `GET /elearning/{itemId}/{token}/{path}` answers the file at
 * `path` of an active ELEARNING item when `token` is a valid signed token of that item (links.ts), with its
 * type, `X-Content-Type-Options: nosniff` and an ETag (its SHA-256). The route runs on the e-learning origin's
 * own listener (ELEARNING_ORIGIN, elearning-server.ts), where a package's scripts cannot reach the portal's
 * storage or session; with no such origin the API serves it under `Content-Security-Policy: sandbox
 * allow-scripts` (never allow-same-origin), which gives the package an opaque origin of its own.
 *
 * Files up to one chunk (1 MiB) are kept in a per-process cache keyed by SHA-256: content-addressed bytes never
 * change, so no process must agree with another about them. Which file a path names is kept too, in the
 * resources' caches that PostgreSQL's notifications drop in every process (cache.ts), so a replaced or
 * deactivated package is never served once its change is committed and announced.
 */
import { Readable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { FILE_CHUNK_BYTES, type PrismaClient, readStoredFile } from '@portal/db';
import { queryRows } from '../../shared/sql';
import { ELEARNING_PREFIX, type ItemLinks } from './links';
import { type ElearningFileMeta, type ResourceCaches, packageFileKey } from './cache';
import { ElearningFileRowSchema, elearningFileSql } from './sql';
import { normaliseEntryName } from './elearning-package';

/** The sandbox of packages served from the portal's own origin: scripts run, with an opaque origin. */
export const SANDBOX_CSP = 'sandbox allow-scripts allow-forms allow-popups allow-modals allow-downloads';

/** A least-recently-used cache of small files' bytes, at most `maxBytes` in all. */
class ContentCache {
  private readonly entries = new Map<string, Buffer>();
  private bytes = 0;
  constructor(private readonly maxBytes: number) {}
  get(sha: string): Buffer | undefined {
    const hit = this.entries.get(sha);
    if (hit) {
      this.entries.delete(sha);
      this.entries.set(sha, hit);
    }
    return hit;
  }
  set(sha: string, data: Buffer): void {
    if (data.length > this.maxBytes / 8 || this.entries.has(sha)) return;
    this.entries.set(sha, data);
    this.bytes += data.length;
    for (const [key, value] of this.entries) {
      if (this.bytes <= this.maxBytes) break;
      this.entries.delete(key);
      this.bytes -= value.length;
    }
  }
}

const Params = z.object({ itemId: z.string(), token: z.string(), '*': z.string() });

/**
 * Registers the e-learning route on `app`. `sandbox`: answer with SANDBOX_CSP (the portal's own origin).
 */
export function registerElearningRoute(
  app: FastifyInstance,
  opts: { prisma: PrismaClient; links: ItemLinks; caches: ResourceCaches; sandbox: boolean; cacheBytes?: number },
): void {
  const cache = new ContentCache(opts.cacheBytes ?? 64 * 1024 * 1024);
  const notFound = { message: 'Not found' };
  app.get(`${ELEARNING_PREFIX}/:itemId/:token/*`, async (req, reply) => {
    const params = Params.safeParse(req.params);
    const itemId = params.success && /^\d{1,9}$/.test(params.data.itemId) ? Number(params.data.itemId) : 0;
    const name = params.success ? normaliseEntryName(params.data['*']) : null;
    if (!params.success || !itemId || !name || !opts.links.verify(itemId, params.data.token)) {
      return reply.code(404).send(notFound);
    }
    // Which file the path names, and its bytes, come from the caches when they hold them.
    const read = async (withData: boolean) =>
      z.array(ElearningFileRowSchema).parse(await queryRows(opts.prisma, elearningFileSql(itemId, name, withData)))[0];
    const ask = req.headers['if-none-match'];
    const key = packageFileKey(itemId, name);
    let file: ElearningFileMeta | undefined = opts.caches.files.get(key);
    if (!file) {
      const mark = opts.caches.files.mark;
      file = await read(false);
      if (!file) return reply.code(404).send(notFound);
      opts.caches.files.set(key, { sha256: file.sha256, size: file.size, contentType: file.contentType }, mark);
    }
    let data = file.size <= FILE_CHUNK_BYTES ? cache.get(file.sha256) : undefined;
    if (!data && file.size <= FILE_CHUNK_BYTES && ask !== `"${file.sha256}"`) {
      const withData = await read(true);
      if (!withData) return reply.code(404).send(notFound);
      file = withData;
      if (withData.data) {
        data = Buffer.from(withData.data.buffer, withData.data.byteOffset, withData.data.byteLength);
        cache.set(withData.sha256, data);
      }
    }
    const etag = `"${file.sha256}"`;
    reply
      .header('content-type', file.contentType)
      .header('x-content-type-options', 'nosniff')
      .header('etag', etag)
      .header('cache-control', 'private, no-cache')
      .header('referrer-policy', 'no-referrer');
    if (opts.sandbox) reply.header('content-security-policy', SANDBOX_CSP);
    if (ask === etag) return reply.code(304).send();
    if (file.size <= FILE_CHUNK_BYTES) return reply.send(data ?? Buffer.alloc(0));
    reply.header('content-length', String(file.size));
    return reply.send(Readable.from(readStoredFile((sql) => queryRows(opts.prisma, sql), file.sha256)));
  });
}
