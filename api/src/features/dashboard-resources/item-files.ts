/**
 * Checking the files of an item's save (issue 23): each by its content, never its name or declared type
 * (file-type): a picture must be an image (notImage); an ELEARNING package must be a .zip (notCompressedFile),
 * unpacked with its entries checked (elearning-package.ts); a DOWNLOAD is any file under its limit. Every
 * refusal is a field error of its part, collected so one answer names them all.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileTypeFromBuffer } from 'file-type';
import {
  DASHBOARD_RESOURCE_MESSAGES as TEXT,
  type DashboardItemKind,
  type FieldErrors,
  formatFileSize,
} from '@portal/contract';
import type { PendingFile } from '@portal/db';
import type { ApiConfig } from '../../config';
import { PackageRefused, type PackageFile, unpackPackage } from './elearning-package';
import type { SpooledFile } from './uploads';

/** Pictures a card may show (raster formats a browser displays; SVG is left out: it can carry scripts). */
const IMAGE_TYPES = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp', 'image/avif', 'image/bmp']);

/** The checked files of a save: what to store, and what the item's row records of them. */
export interface CheckedFiles {
  file?: { pending: PendingFile; name: string; size: number; contentType: string };
  image?: { pending: PendingFile; contentType: string };
  elearning?: { files: PackageFile[]; entryPoint: string };
}

/** The head of a file (file-type reads a zip's local headers one after another: bounded to this many bytes). */
const SNIFF_BYTES = 64 * 1024;

/** The type of a file by its first bytes. */
async function sniff(file: string): Promise<{ mime: string } | undefined> {
  const handle = await fs.promises.open(file, 'r');
  try {
    const head = Buffer.alloc(SNIFF_BYTES);
    const { bytesRead } = await handle.read(head, 0, SNIFF_BYTES, 0);
    return await fileTypeFromBuffer(head.subarray(0, bytesRead));
  } finally {
    await handle.close();
  }
}

/** A declared content type kept as it is only when it has the shape of one. */
const declaredType = (value: string): string | null =>
  /^[a-z0-9][a-z0-9!#$&^_.+-]{0,63}\/[a-z0-9][a-z0-9!#$&^_.+-]{0,63}$/i.test(value) ? value.toLowerCase() : null;

function sizeProblem(file: SpooledFile, limit: number): string | null {
  if (file.overLimit || file.size > limit) return TEXT.tooLarge(formatFileSize(limit));
  if (file.size === 0) return 'required';
  return null;
}

/**
 * Checks the `file` and `image` parts for an item of `kind`; `needsFile` when the item has no stored file of
 * that kind to keep. Unpacks a package into `dir`. @returns the checked files and the field errors found.
 */
export async function checkItemFiles(
  cfg: ApiConfig,
  kind: DashboardItemKind,
  parts: { file?: SpooledFile; image?: SpooledFile },
  needsFile: boolean,
  dir: string,
): Promise<{ checked: CheckedFiles; errors: FieldErrors }> {
  const errors: FieldErrors = {};
  const checked: CheckedFiles = {};
  const { file, image } = parts;

  if (image) {
    const problem = sizeProblem(image, cfg.DASHBOARD_IMAGE_MAX_BYTES);
    const sniffed = problem ? undefined : await sniff(image.path);
    if (problem) errors.image = [problem];
    else if (!sniffed || !IMAGE_TYPES.has(sniffed.mime)) errors.image = ['notImage'];
    else checked.image = { pending: image, contentType: sniffed.mime };
  }

  if (kind === 'LINK') return { checked, errors };
  if (!file) {
    if (needsFile) errors.file = ['required'];
    return { checked, errors };
  }
  const limit = kind === 'DOWNLOAD' ? cfg.DASHBOARD_FILE_MAX_BYTES : cfg.ELEARNING_PACKAGE_MAX_BYTES;
  const problem = sizeProblem(file, limit);
  if (problem) {
    errors.file = [problem];
    return { checked, errors };
  }
  const sniffed = await sniff(file.path);
  if (kind === 'DOWNLOAD') {
    const contentType = sniffed?.mime ?? declaredType(file.declaredType) ?? 'application/octet-stream';
    checked.file = { pending: file, name: file.fileName, size: file.size, contentType };
    return { checked, errors };
  }
  if (sniffed?.mime !== 'application/zip') {
    errors.file = ['notCompressedFile'];
    return { checked, errors };
  }
  try {
    const target = path.join(dir, 'package');
    await fs.promises.mkdir(target);
    const unpacked = await unpackPackage(file.path, target, {
      maxEntries: cfg.ELEARNING_MAX_ENTRIES,
      maxUnpackedBytes: cfg.ELEARNING_MAX_UNPACKED_BYTES,
      maxRatio: cfg.ELEARNING_MAX_RATIO,
    });
    checked.file = { pending: file, name: file.fileName, size: file.size, contentType: 'application/zip' };
    checked.elearning = unpacked;
  } catch (err) {
    if (!(err instanceof PackageRefused)) throw err;
    errors.file = [err.reason];
  }
  return { checked, errors };
}
