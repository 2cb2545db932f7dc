/**
 * Unpacking an uploaded e-learning package (issue 23 "Uploads are hostile input"): the .zip, already on local
 * disk, is read with yauzl and each entry written to a temporary folder under a generated name (never its own
 * name; a small entry is held in memory instead, within a budget), hashed (SHA-256) on the way. Refused before
 * anything is written: more entries than ELEARNING_MAX_ENTRIES; an encrypted entry, a symbolic link, an
 * absolute path, a `..` segment, a backslash, a control character; two entries whose names differ only in
 * letter case or Unicode form; declared sizes over ELEARNING_MAX_UNPACKED_BYTES or a compression ratio over
 * ELEARNING_MAX_RATIO. While writing, the bytes actually unpacked are counted against the same limit (yauzl
 * also checks each entry against its declared size). The package must have index.html or story.html at its
 * root (noIndexOrStoryFile); anything yauzl cannot read is notCompressedFile.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { Transform, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import yauzl from 'yauzl';
import { DASHBOARD_RESOURCE_MESSAGES as TEXT, formatFileSize } from '@portal/contract';
import type { PendingFile } from '@portal/db';
import { contentTypeOfPath } from './content-types';

/** The limits of a package (from configuration). */
export interface PackageLimits {
  maxEntries: number;
  maxUnpackedBytes: number;
  maxRatio: number;
}

/** One unpacked file: its normalised path inside the package, its content type and its bytes (disk or memory). */
export type PackageFile = PendingFile & { name: string; contentType: string };

/** The unpacked package: its files and its entry point (index.html or story.html). */
export interface UnpackedPackage {
  files: PackageFile[];
  entryPoint: string;
}

/** A refusal of the package: the field error (a 000 §5 key or a sentence) of its `file` part. */
export class PackageRefused extends Error {
  constructor(readonly reason: string) {
    super(reason);
  }
}

/** Entries smaller than this are not held to the ratio (tiny files compress well and are harmless). */
const RATIO_FLOOR_BYTES = 1024 * 1024;
/** Entries unpacked at once. */
const UNPACK_LANES = 8;
/** Entries up to this size are held in memory, up to IN_MEMORY_BYTES in all per package; others go to disk. */
const IN_MEMORY_ENTRY_BYTES = 256 * 1024;
const IN_MEMORY_BYTES = 64 * 1024 * 1024;
const S_IFMT = 0o170000;
const S_IFLNK = 0o120000;

/** The normalised name of an entry, or null when the name is not allowed (absolute, `..`, `\`, control chars). */
export function normaliseEntryName(raw: string): string | null {
  // eslint-disable-next-line no-control-regex
  if (!raw || /[\u0000-\u001f\u007f\\]/.test(raw) || raw.startsWith('/') || /^[a-z]:/i.test(raw)) return null;
  const segments = raw.normalize('NFC').split('/');
  if (segments.some((s) => s === '..')) return null;
  const kept = segments.filter((s) => s !== '' && s !== '.');
  const name = kept.join('/');
  return name && name.length <= 1024 ? name : null;
}

const isSymlink = (entry: yauzl.Entry): boolean => ((entry.externalFileAttributes >>> 16) & S_IFMT) === S_IFLNK;

function openZip(file: string): Promise<yauzl.ZipFile> {
  return new Promise((resolve, reject) =>
    yauzl.open(
      file,
      { lazyEntries: true, autoClose: false, validateEntrySizes: true, decodeStrings: true, strictFileNames: false },
      (err, zip) => (err || !zip ? reject(new PackageRefused('notCompressedFile')) : resolve(zip)),
    ),
  );
}

/** yauzl's own refusals of a name (it checks them before our entry handler sees them). */
const UNSAFE_NAME = /absolute path|invalid relative path|invalid characters in fileName/;

/** Reads every entry's header first (nothing written), checking names, kinds and declared sizes. */
function listEntries(zip: yauzl.ZipFile, limits: PackageLimits): Promise<yauzl.Entry[]> {
  return new Promise((resolve, reject) => {
    const entries: yauzl.Entry[] = [];
    const names = new Set<string>();
    let declared = 0;
    let packed = 0;
    const fail = (reason: string) => {
      zip.close();
      reject(new PackageRefused(reason));
    };
    zip.on('error', (err: Error) => fail(UNSAFE_NAME.test(err.message) ? TEXT.unsafeEntry : 'notCompressedFile'));
    zip.on('entry', (entry: yauzl.Entry) => {
      if (entry.isEncrypted() || isSymlink(entry)) return fail(TEXT.unsafeEntry);
      const name = normaliseEntryName(entry.fileName);
      if (!name) return fail(TEXT.unsafeEntry);
      if (!entry.fileName.endsWith('/')) {
        // Names are compared as a case-insensitive file system or look-up would see them (the NFC form is
        // already taken): story.html beside Story.html would open either one.
        const folded = name.toLowerCase();
        if (names.has(folded)) return fail(TEXT.sameNameEntries);
        names.add(folded);
        declared += entry.uncompressedSize;
        packed += entry.compressedSize;
        if (declared > limits.maxUnpackedBytes)
          return fail(TEXT.unpackedTooLarge(formatFileSize(limits.maxUnpackedBytes)));
        const ratio = entry.uncompressedSize / Math.max(entry.compressedSize, 1);
        if (entry.uncompressedSize > RATIO_FLOOR_BYTES && ratio > limits.maxRatio) return fail(TEXT.ratioTooHigh);
        entries.push(entry);
      }
      zip.readEntry();
    });
    zip.on('end', () => {
      if (declared > RATIO_FLOOR_BYTES && declared / Math.max(packed, 1) > limits.maxRatio) fail(TEXT.ratioTooHigh);
      else resolve(entries);
    });
    zip.readEntry();
  });
}

function openEntry(zip: yauzl.ZipFile, entry: yauzl.Entry): Promise<NodeJS.ReadableStream> {
  return new Promise((resolve, reject) =>
    zip.openReadStream(entry, (err, stream) => (err || !stream ? reject(err) : resolve(stream))),
  );
}

/**
 * Unpacks `zipPath` into `dir` (an empty temporary folder the caller removes) under `limits`.
 * @throws PackageRefused with the `file` field's reason.
 */
export async function unpackPackage(zipPath: string, dir: string, limits: PackageLimits): Promise<UnpackedPackage> {
  const zip = await openZip(zipPath);
  if (zip.entryCount > limits.maxEntries) {
    zip.close();
    throw new PackageRefused(TEXT.tooManyEntries(limits.maxEntries));
  }
  const entries = await listEntries(zip, limits);
  const roots = new Map(entries.map((e) => [normaliseEntryName(e.fileName)!.toLowerCase(), e]));
  const root = roots.get('index.html') ?? roots.get('story.html');
  if (!root) {
    zip.close();
    throw new PackageRefused('noIndexOrStoryFile');
  }
  const files: PackageFile[] = new Array(entries.length);
  let unpacked = 0;
  let held = 0;
  /** Unpacks entry `index` to its temporary file, hashing and counting on the way. */
  const unpackEntry = async (index: number): Promise<void> => {
    const e = entries[index]!;
    const name = normaliseEntryName(e.fileName)!;
    const target = path.join(dir, String(index));
    const hash = crypto.createHash('sha256');
    let size = 0;
    const counter = new Transform({
      transform(chunk: Buffer, _enc, done) {
        size += chunk.length;
        unpacked += chunk.length;
        if (unpacked > limits.maxUnpackedBytes) {
          return done(new PackageRefused(TEXT.unpackedTooLarge(formatFileSize(limits.maxUnpackedBytes))));
        }
        hash.update(chunk);
        done(null, chunk);
      },
    });
    // Small entries stay in memory while the budget lasts: creating thousands of small files costs more than
    // their bytes (about 1 ms each on these disks).
    const inMemory = e.uncompressedSize <= IN_MEMORY_ENTRY_BYTES && held + e.uncompressedSize <= IN_MEMORY_BYTES;
    if (inMemory) held += e.uncompressedSize;
    const parts: Buffer[] = [];
    const sink = inMemory
      ? new Writable({ write: (chunk: Buffer, _enc, done) => done(void parts.push(chunk)) })
      : fs.createWriteStream(target, { flags: 'wx' });
    try {
      await pipeline(await openEntry(zip, e), counter, sink);
    } catch (err) {
      throw err instanceof PackageRefused ? err : new PackageRefused('notCompressedFile');
    }
    const where = inMemory ? { data: Buffer.concat(parts) } : { path: target };
    files[index] = { name, ...where, size, sha256: hash.digest('hex'), contentType: contentTypeOfPath(name) };
  };
  try {
    // A few entries at a time: most packages are many small files, whose cost is waiting, not bytes.
    let next = 0;
    let failed = false;
    const lane = async () => {
      while (!failed && next < entries.length) {
        const index = next++;
        await unpackEntry(index).catch((err: unknown) => {
          failed = true;
          throw err;
        });
      }
    };
    const lanes = await Promise.allSettled(Array.from({ length: UNPACK_LANES }, lane));
    const refusal = lanes.find((l): l is PromiseRejectedResult => l.status === 'rejected');
    if (refusal) throw refusal.reason;
  } finally {
    zip.close();
  }
  return { files, entryPoint: normaliseEntryName(root.fileName)! };
}
