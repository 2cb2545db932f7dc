/**
 * The electronic signatures shown with request views (docs/decisions.md "Electronic signatures"): with
 * SIGNATURES=on every request view of a page gets `signatures` (oldest first, each verified against its record,
 * `requestSignatureViews`), read for the whole page at once; with SIGNATURES=off the views are returned as they
 * are (no `signatures` key, the spec's answers).
 */
import type { SignatureView } from '@portal/contract';
import { type RequestEntityType, requestSignatureViews } from '@portal/db';
import type { Deps } from '../deps';

/** A request view: its id and current version are what its signatures are verified against. */
interface RequestViewKeys {
  id: number;
  versionno: number;
}

/** `views` of requests of `kind` with their signatures when signatures are on (two or three queries in all). */
export async function withRequestSignatures<T extends RequestViewKeys>(
  deps: Deps,
  kind: RequestEntityType,
  views: T[],
): Promise<Array<T & { signatures?: SignatureView[] }>> {
  if (deps.cfg.SIGNATURES !== 'on') return views;
  const signed = await requestSignatureViews(deps.prisma, kind, views);
  return views.map((v) => ({ ...v, signatures: signed.get(v.id) ?? [] }));
}

/** One request view of `kind` with its signatures when signatures are on. */
export const withRequestSignature = async <T extends RequestViewKeys>(
  deps: Deps,
  kind: RequestEntityType,
  view: T,
): Promise<T & { signatures?: SignatureView[] }> => (await withRequestSignatures(deps, kind, [view]))[0]!;
