/** Maps site rows to the contract's Site (000 §3 Site; GET /rest/public/sites). */
import type { Site } from '@portal/contract';
import type { Prisma } from '@portal/db';

type SiteRow = Prisma.SiteGetPayload<object>;

export const siteView = (s: SiteRow): Site => ({
  siteCode: s.siteCode,
  siteName: s.siteName,
  siteStatus: s.siteStatus,
  siteType: s.siteType,
  type: s.siteType,
  description: s.description,
  otherIdentifier: s.laoCode,
});
