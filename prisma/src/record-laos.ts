/**
 * The LAOs of an access record (issue 25 "the LAO staff of the record's LAOs"), written once for every SQL
 * statement that needs them. As the proxy's reach and the users list's LAO view read an LAO (000 §3, 000 §6),
 * a record belongs to:
 *   - each LAO in its `laoIds`;
 *   - the LAO of each of its AOs (`siteCodes`) through an active LAO-site-study relation, whatever the study;
 *   - the LAO whose own AO duplicate it names (an AO code equal to an LAO's `laoCode`).
 * A record at AOs of no LAO (or of a relation made inactive) has none.
 */
import { Prisma } from '../generated/client/client';

/**
 * SQL expression (text[], distinct, sorted; `{}` when none) of the LAOs of the `UserAccess` row aliased
 * `alias` in the surrounding statement. Uses `SiteRelation_siteCode_active_idx` and `Site.laoCode`'s unique
 * index, so it costs two index probes per AO of the record.
 */
export function recordLaosSql(alias: string): Prisma.Sql {
  if (!/^[a-z_][a-z0-9_]*$/i.test(alias)) throw new Error(`not an SQL alias: ${alias}`);
  const a = Prisma.raw(`"${alias}"`);
  return Prisma.sql`ARRAY(
    SELECT lao FROM unnest(${a}."laoIds") lao
    UNION SELECT r."laoCode"::text FROM "SiteRelation" r WHERE r.active AND r."siteCode" = ANY(${a}."siteCodes")
    UNION SELECT s."laoCode"::text FROM "Site" s WHERE s."laoCode" = ANY(${a}."siteCodes")
    ORDER BY 1)`;
}
