/**
 * Helpers of the dashboard-resources tests (issue 23): multipart bodies of an item's save, small real files (a
 * PNG, a PDF, e-learning packages built with yazl at test time) and the hostile packages (zip-slip, symlink,
 * a bomb declaring 12 GB, 100,000 entries, an encrypted entry), made by patching yazl's output bytes where
 * yazl refuses to write them.
 */
import zlib from 'node:zlib';
import yazl from 'yazl';
import type { LightMyRequestResponse } from 'fastify';
import { DASHBOARD_RESOURCE_PATHS, resourcePath } from '@portal/contract';
import type { Session, TestApi } from '../harness';

/** A file part: its bytes, upload name and declared type. */
export interface FilePart {
  bytes: Buffer;
  name: string;
  type?: string;
}

/** A multipart body of `item` (JSON) and optional `file` / `image` parts, with its content type. */
export async function multipartBody(
  item: unknown,
  files: { file?: FilePart; image?: FilePart } = {},
): Promise<{ payload: Buffer; contentType: string }> {
  const form = new FormData();
  form.append('item', typeof item === 'string' ? item : JSON.stringify(item));
  for (const [name, part] of Object.entries(files)) {
    if (part) form.append(name, new Blob([new Uint8Array(part.bytes)], { type: part.type ?? '' }), part.name);
  }
  const res = new Response(form);
  return { payload: Buffer.from(await res.arrayBuffer()), contentType: res.headers.get('content-type')! };
}

/** POST (id absent) or PUT an item as multipart with `session`. */
export async function saveItem(
  api: TestApi,
  session: Session,
  item: unknown,
  files: { file?: FilePart; image?: FilePart } = {},
  id?: number,
): Promise<LightMyRequestResponse> {
  const { payload, contentType } = await multipartBody(item, files);
  return api.app.inject({
    method: id ? 'PUT' : 'POST',
    url: id ? resourcePath(DASHBOARD_RESOURCE_PATHS.item, { id }) : DASHBOARD_RESOURCE_PATHS.items,
    headers: { cookie: session.cookie, 'x-xsrf-token': session.xsrf, 'content-type': contentType },
    payload,
  });
}

/** A 1x1 PNG. */
export const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);

/** A one-page PDF. */
export const PDF = Buffer.from(
  '%PDF-1.4\n1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj\n2 0 obj << /Type /Pages /Kids [] /Count 0 >> endobj\n' +
    'trailer << /Root 1 0 R >>\n%%EOF\n',
);

/** Builds a zip of `entries` with yazl. `mode` sets an entry's Unix mode (a symlink: 0o120777). */
export function buildZip(
  entries: { name: string; data: Buffer | string; mode?: number; compress?: boolean }[],
): Promise<Buffer> {
  const zip = new yazl.ZipFile();
  for (const e of entries) {
    zip.addBuffer(Buffer.isBuffer(e.data) ? e.data : Buffer.from(e.data), e.name, {
      mode: e.mode,
      compress: e.compress ?? true,
      mtime: new Date('2026-11-26T00:00:00Z'),
    });
  }
  zip.end();
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    zip.outputStream.on('data', (c: Buffer) => chunks.push(c));
    zip.outputStream.on('end', () => resolve(Buffer.concat(chunks)));
    zip.outputStream.on('error', reject);
  });
}

/** A small package with `entry` (story.html by default) at its root and a script beside it. */
export const packageZip = (entry = 'story.html', extra: Record<string, string> = {}) =>
  buildZip([
    { name: entry, data: '<!doctype html><title>Course</title><script src="js/course.js"></script>' },
    { name: 'js/course.js', data: 'document.title = "Course loaded";' },
    ...Object.entries(extra).map(([name, data]) => ({ name, data })),
  ]);

/** Replaces every occurrence of `from` by `to` (same length) in `zip`: both headers carry each name. */
export function patchBytes(zip: Buffer, from: string, to: string): Buffer {
  if (from.length !== to.length) throw new Error('same length only');
  const out = Buffer.from(zip);
  const needle = Buffer.from(from);
  for (let at = out.indexOf(needle); at >= 0; at = out.indexOf(needle, at + 1)) out.write(to, at);
  return out;
}

const LOCAL = 0x04034b50;
const CENTRAL = 0x02014b50;

/** Walks the local and central headers of a yazl zip (no zip64), calling `visit` with each header's offset. */
function eachHeader(zip: Buffer, visit: (offset: number, central: boolean) => void): void {
  for (let at = 0; at + 4 <= zip.length; at += 1) {
    const sig = zip.readUInt32LE(at);
    if (sig === LOCAL) visit(at, false);
    else if (sig === CENTRAL) visit(at, true);
  }
}

/** Marks every entry encrypted (general purpose bit 0) in both headers. */
export function markEncrypted(zip: Buffer): Buffer {
  const out = Buffer.from(zip);
  eachHeader(out, (at, central) => {
    const flags = at + (central ? 8 : 6);
    out.writeUInt16LE(out.readUInt16LE(flags) | 1, flags);
  });
  return out;
}

/** Declares each entry's uncompressed size as `size` bytes in the central directory (a bomb's lie). */
export function declareSizes(zip: Buffer, size: number): Buffer {
  const out = Buffer.from(zip);
  eachHeader(out, (at, central) => {
    if (central) out.writeUInt32LE(size, at + 24);
  });
  return out;
}

/**
 * A zip of `count` empty entries beside a story.html, written by hand (yazl takes quadratic time on this many
 * entries), with the zip64 end records its entry count needs.
 */
export function manyEntriesZip(count: number): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  const add = (name: string, data: Buffer) => {
    const n = Buffer.from(name);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(LOCAL, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(0x21, 12); // 1980-01-01
    local.writeUInt32LE(zlib.crc32(data), 14);
    local.writeUInt32LE(data.length, 18);
    local.writeUInt32LE(data.length, 22);
    local.writeUInt16LE(n.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(CENTRAL, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(0x21, 14);
    central.writeUInt32LE(zlib.crc32(data), 16);
    central.writeUInt32LE(data.length, 20);
    central.writeUInt32LE(data.length, 24);
    central.writeUInt16LE(n.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, n, data);
    centrals.push(central, n);
    offset += 30 + n.length + data.length;
  };
  add('story.html', Buffer.from('<p>course</p>'));
  for (let i = 0; i < count; i += 1) add(`f/${i}.txt`, Buffer.alloc(0));
  const directory = Buffer.concat(centrals);
  const entries = BigInt(count + 1);
  const zip64End = Buffer.alloc(56);
  zip64End.writeUInt32LE(0x06064b50, 0);
  zip64End.writeBigUInt64LE(44n, 4);
  zip64End.writeUInt16LE(45, 12);
  zip64End.writeUInt16LE(45, 14);
  zip64End.writeBigUInt64LE(entries, 24);
  zip64End.writeBigUInt64LE(entries, 32);
  zip64End.writeBigUInt64LE(BigInt(directory.length), 40);
  zip64End.writeBigUInt64LE(BigInt(offset), 48);
  const locator = Buffer.alloc(20);
  locator.writeUInt32LE(0x07064b50, 0);
  locator.writeBigUInt64LE(BigInt(offset + directory.length), 8);
  locator.writeUInt32LE(1, 16);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(0xffff, 8);
  end.writeUInt16LE(0xffff, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, zip64End, locator, end]);
}
