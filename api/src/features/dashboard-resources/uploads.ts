/**
 * Reading an item's multipart body (issue 23 "Uploads are hostile input"; @fastify/multipart, streamed): the
 * `item` part (JSON) and at most one `file` and one `image` part, each file spooled to a temporary folder while
 * its SHA-256 is computed, so memory stays bounded whatever the upload's size. A part over its configured limit
 * is drained without being kept and answered as a field error naming the limit; a body that is not multipart,
 * has unknown or repeated parts, or breaks the parser's limits is a 422, never a 5xx.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { FastifyRequest } from 'fastify';
import { DASHBOARD_ITEM_PARTS, DASHBOARD_RESOURCE_MESSAGES as TEXT, formatFileSize } from '@portal/contract';
import type { PendingFile } from '@portal/db';
import type { ApiConfig } from '../../config';
import { unprocessable } from '../../http/errors';

/** A file part on local disk: what PendingFile holds, the name it was uploaded with and its declared type. */
export interface SpooledFile extends Extract<PendingFile, { path: string }> {
  fileName: string;
  declaredType: string;
  /** Set when the part was larger than `limit` (its bytes were not kept). */
  overLimit: boolean;
}

/** What an item's save sent: the parsed `item` JSON (unvalidated) and the spooled files. */
export interface ItemUpload {
  item: unknown;
  file?: SpooledFile;
  image?: SpooledFile;
  /** The temporary folder of this request (the caller removes it with `discard`). */
  dir: string;
}

/** The largest `item` part (JSON text), in bytes. */
const ITEM_PART_BYTES = 64 * 1024;

/** The options @fastify/multipart is registered with: its hard limits, one byte over the largest part. */
export const multipartOptions = (cfg: ApiConfig) => ({
  limits: {
    fieldNameSize: 64,
    fieldSize: ITEM_PART_BYTES,
    fields: 1,
    files: 2,
    parts: 3,
    headerPairs: 20,
    fileSize:
      Math.max(cfg.DASHBOARD_FILE_MAX_BYTES, cfg.ELEARNING_PACKAGE_MAX_BYTES, cfg.DASHBOARD_IMAGE_MAX_BYTES) + 1,
  },
  throwFileSizeLimit: true,
});

/** Removes an upload's temporary folder. */
export const discard = (upload: { dir: string }): Promise<void> =>
  fs.promises.rm(upload.dir, { recursive: true, force: true });

/** The upload name of a file, as kept: its last path segment, without control characters, at most 255 characters. */
export function cleanFileName(raw: string | undefined): string {
  const base = (raw ?? '')
    .split(/[/\\]/)
    .pop()!
    // eslint-disable-next-line no-control-regex
    .replace(/[\u0000-\u001f\u007f"]/g, '')
    .normalize('NFC')
    .trim();
  return (base || 'file').slice(0, 255);
}

async function spool(
  stream: NodeJS.ReadableStream,
  target: string,
  limit: number,
): Promise<{ sha256: string; size: number; overLimit: boolean }> {
  const hash = crypto.createHash('sha256');
  let size = 0;
  let overLimit = false;
  const counter = new Transform({
    transform(chunk: Buffer, _enc, done) {
      size += chunk.length;
      if (size > limit) overLimit = true;
      if (overLimit) return done();
      hash.update(chunk);
      done(null, chunk);
    },
  });
  await pipeline(stream, counter, fs.createWriteStream(target, { flags: 'wx' }));
  return { sha256: hash.digest('hex'), size, overLimit };
}

/** Limits of the file parts while streaming (the kind's exact limit is applied once the item is read). */
const partLimit = (cfg: ApiConfig, name: string) =>
  name === DASHBOARD_ITEM_PARTS.image
    ? cfg.DASHBOARD_IMAGE_MAX_BYTES
    : Math.max(cfg.DASHBOARD_FILE_MAX_BYTES, cfg.ELEARNING_PACKAGE_MAX_BYTES);

/**
 * Reads `req`'s multipart body. @throws HttpError 422: not multipart or no `item` part (`item` required), an
 * `item` part that is not JSON (`item` invalid), an unknown or repeated part, or a parser limit (globalErrors).
 */
export async function readItemUpload(req: FastifyRequest, cfg: ApiConfig): Promise<ItemUpload> {
  if (!req.isMultipart()) throw unprocessable({ item: ['required'] });
  const dir = await fs.promises.mkdtemp(path.join(os.tmpdir(), 'portal-upload-'));
  const upload: ItemUpload = { item: undefined, dir };
  let itemText: string | undefined;
  try {
    for await (const part of req.parts()) {
      const name = part.fieldname;
      if (part.type === 'field') {
        if (name !== DASHBOARD_ITEM_PARTS.item || itemText !== undefined || typeof part.value !== 'string') {
          throw unprocessable({ [name || '_']: ['invalid'] });
        }
        itemText = part.value;
        continue;
      }
      if ((name !== DASHBOARD_ITEM_PARTS.file && name !== DASHBOARD_ITEM_PARTS.image) || upload[name]) {
        part.file.resume();
        throw unprocessable({ [name || '_']: ['invalid'] });
      }
      const target = path.join(dir, name);
      const spooled = await spool(part.file, target, partLimit(cfg, name));
      if ((part.file as { truncated?: boolean }).truncated) spooled.overLimit = true;
      upload[name] = {
        ...spooled,
        path: target,
        fileName: cleanFileName(part.filename),
        declaredType: part.mimetype ?? '',
      };
    }
  } catch (err) {
    await discard(upload);
    throw toUnprocessable(err, cfg);
  }
  if (itemText === undefined) {
    await discard(upload);
    throw unprocessable({ item: ['required'] });
  }
  try {
    upload.item = JSON.parse(itemText);
  } catch {
    await discard(upload);
    throw unprocessable({ item: ['invalid'] });
  }
  return upload;
}

/** @fastify/multipart's and busboy's failures (limits, a malformed body) as 422s; our own errors as they are. */
function toUnprocessable(err: unknown, cfg: ApiConfig): unknown {
  if (err && typeof err === 'object' && 'statusCode' in err && (err as { statusCode: number }).statusCode === 422) {
    return err;
  }
  const code = (err as { code?: string } | null)?.code ?? '';
  if (code === 'FST_REQ_FILE_TOO_LARGE') {
    return unprocessable({ file: [TEXT.tooLarge(formatFileSize(multipartOptions(cfg).limits.fileSize - 1))] });
  }
  if (/^FST_(FILES|FIELDS|PARTS)_LIMIT$/.test(code) || code === 'FST_PROTO_VIOLATION') {
    return unprocessable({}, [TEXT.uploadParts]);
  }
  return unprocessable({}, [TEXT.uploadUnreadable]);
}
