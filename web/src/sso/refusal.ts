import { SSO_REFUSAL_CASES, type SsoRefusalCase } from '@portal/contract';
import type { SsoRefusalParams } from '../lib/paths';

/** A positive whole number from a query value, else null. */
function positiveId(value: string | null): number | null {
  if (!value || !/^\d{1,10}$/.test(value)) return null;
  const n = Number(value);
  return n > 0 && Number.isSafeInteger(n) ? n : null;
}

/**
 * The refusal page's query (`case`, `systemId`, `systemName`, `openRequestId`; issue 22) as what it shows: an
 * unknown or missing case is 'undetermined' (000 §8 'not enough data'), a system needs a valid id (its name
 * may be missing: the page looks it up), an open request a valid id.
 */
export function readRefusal(search: URLSearchParams): Required<SsoRefusalParams> {
  const raw = search.get('case');
  const kase: SsoRefusalCase = SSO_REFUSAL_CASES.find((c) => c === raw) ?? 'undetermined';
  const systemId = positiveId(search.get('systemId'));
  const systemName = (search.get('systemName') ?? '').trim().slice(0, 128);
  return {
    case: kase,
    system: systemId ? { id: systemId, systemName } : null,
    openRequestId: positiveId(search.get('openRequestId')),
  };
}
