/**
 * The addresses a dashboard item's card opens (issue 23): a DOWNLOAD's file and a card's picture on the portal,
 * an ELEARNING package on the e-learning origin under a signed path, `/elearning/{id}/{token}/{entryPoint}`.
 * The token is `{expires}.{mac}`: the hour (Unix seconds) after which it is refused and an HMAC-SHA256 of the
 * item id and that hour, keyed with ELEARNING_URL_KEY (the same in every API process). A package's relative links stay under the signed path, so the whole package loads with
 * one token; a person gets a token only for an item they may see. Expiry is rounded up to the hour, so a card's
 * address is stable for an hour (the browser caches the package's files).
 */
import crypto from 'node:crypto';
import { DASHBOARD_RESOURCE_PATHS, resourcePath } from '@portal/contract';
import type { ApiConfig } from '../../config';

/** The path prefix e-learning packages are served under (on the e-learning origin, or the portal's). */
export const ELEARNING_PREFIX = '/elearning';

export interface ItemLinks {
  fileUrl(id: number): string;
  imageUrl(id: number, imageSha256: string): string;
  elearningUrl(id: number, entryPoint: string, nowMs?: number): string;
  /** Whether `token` is a valid, unexpired token of item `id`. */
  verify(id: number, token: string, nowMs?: number): boolean;
}

const HOUR = 3600;

/** Builds the item links of `cfg`. */
export function itemLinks(cfg: ApiConfig): ItemLinks {
  const key = Buffer.from(cfg.ELEARNING_URL_KEY);
  const origin = cfg.ELEARNING_ORIGIN ? new URL(cfg.ELEARNING_ORIGIN).origin : '';
  const mac = (id: number, expires: number) =>
    crypto.createHmac('sha256', key).update(`${id}.${expires}`).digest('base64url').slice(0, 32);
  return {
    fileUrl: (id) => resourcePath(DASHBOARD_RESOURCE_PATHS.itemFile, { id }),
    imageUrl: (id, sha) => `${resourcePath(DASHBOARD_RESOURCE_PATHS.itemImage, { id })}?v=${sha.slice(0, 16)}`,
    elearningUrl(id, entryPoint, nowMs = Date.now()) {
      const expires = Math.ceil((nowMs / 1000 + cfg.ELEARNING_URL_TTL_HOURS * HOUR) / HOUR) * HOUR;
      const encoded = entryPoint.split('/').map(encodeURIComponent).join('/');
      return `${origin}${ELEARNING_PREFIX}/${id}/${expires}.${mac(id, expires)}/${encoded}`;
    },
    verify(id, token, nowMs = Date.now()) {
      const match = /^(\d{1,12})\.([A-Za-z0-9_-]{32})$/.exec(token);
      if (!match) return false;
      const expires = Number(match[1]);
      if (expires * 1000 < nowMs) return false;
      const expected = Buffer.from(mac(id, expires));
      const given = Buffer.from(match[2]!);
      return crypto.timingSafeEqual(expected, given);
    },
  };
}
