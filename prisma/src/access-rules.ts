/**
 * Server-side rules of role blocks and access records (000 §5 Role block, 001 §5 "Server-side"): the study
 * role exists and is active, is used once per list, AOs/LAOs follow allowAOs/allowLAOs and are required when
 * siteRequired, studies are required when studyRequired, every code names a known record, and the fixed
 * 'Portal Gateway' system is included, and an end date sent is neither past nor beyond ACCESS_MAX_DAYS (issue 25).
 * Shared by the API (filing, the admin's access calls, the review's
 * pre-check) and the worker (the review commit's re-check), so both answer the same `fieldErrors`. The
 * browser checks the same; the server's check is the law.
 */
import {
  type AccessControl,
  type AccessDateSettings,
  AccessDateSettingsSchema,
  type FieldErrors,
  MESSAGES,
  accessEndDateProblem,
  dayIn,
} from '@portal/contract';
import type { Prisma } from '../generated/client/client';

type Db = Pick<Prisma.TransactionClient, 'studyRole' | 'site' | 'study' | 'systemAccess'>;

export interface ReferenceSets {
  roles: Map<string, { siteRequired: boolean; studyRequired: boolean; allowAOs: boolean; allowLAOs: boolean }>;
  aoCodes: Set<string>;
  laoCodes: Set<string>;
  studies: Set<string>;
  systemIds: Set<number>;
  fixedSystemIds: number[];
  /** Issue 25: today in NETWORK_TIME_ZONE and ACCESS_MAX_DAYS, against which a sent end date is checked. */
  endDates?: { today: string; maxDays: number };
}

let settings: AccessDateSettings | undefined;

/**
 * Time-bound access settings (ACCESS_MAX_DAYS, ACCESS_EXPIRY_NOTICE_DAYS, NETWORK_TIME_ZONE), read from the
 * environment once per process; the API's and the worker's configuration validate the same variables at start.
 */
export function accessDateSettings(): AccessDateSettings {
  return (settings ??= AccessDateSettingsSchema.parse(process.env));
}

/** Today in NETWORK_TIME_ZONE and ACCESS_MAX_DAYS: what a sent end date is checked against, as of `now`. */
export function accessEndDateBounds(now = new Date()): NonNullable<ReferenceSets['endDates']> {
  return { today: dayIn(accessDateSettings().NETWORK_TIME_ZONE, now), maxDays: accessDateSettings().ACCESS_MAX_DAYS };
}

/** Loads the active reference data the rules check against (a client or a transaction). */
export async function loadReferenceSets(db: Db): Promise<ReferenceSets> {
  const [roles, sites, studies, systems] = await Promise.all([
    db.studyRole.findMany({ where: { inactive: false } }),
    db.site.findMany({ where: { siteStatus: 'ACTIVE' } }),
    db.study.findMany({ where: { active: true } }),
    db.systemAccess.findMany({ where: { inactive: false } }),
  ]);
  return {
    roles: new Map(roles.map((r) => [r.roleName, r])),
    aoCodes: new Set(sites.filter((s) => s.siteType === 'AO').map((s) => s.siteCode)),
    laoCodes: new Set(sites.flatMap((s) => (s.siteType === 'LAO' && s.laoCode ? [s.laoCode] : []))),
    studies: new Set(studies.map((s) => s.study)),
    systemIds: new Set(systems.map((s) => s.id)),
    fixedSystemIds: systems.filter((s) => s.fixed).map((s) => s.id),
    endDates: accessEndDateBounds(),
  };
}

/**
 * Returns the field errors of `blocks`, keyed `<keyPrefix>[i].<field>` (`accessControls` for requests,
 * `userAccesses` for the review and the admin's access calls, 001 §5); empty when all rules hold.
 */
export function checkAccessControls(
  blocks: readonly AccessControl[],
  ref: ReferenceSets,
  keyPrefix = 'accessControls',
): FieldErrors {
  const errors: FieldErrors = {};
  const add = (i: number, field: string, message: string) => {
    const list = (errors[`${keyPrefix}[${i}].${field}`] ??= []);
    if (!list.includes(message)) list.push(message);
  };
  const seen = new Set<string>();
  blocks.forEach((b, i) => {
    const role = ref.roles.get(b.roleName);
    if (!role) add(i, 'roleName', 'unknown');
    if (seen.has(b.roleName)) add(i, 'roleName', 'unique');
    seen.add(b.roleName);
    if (role) {
      if (!role.allowAOs && b.siteCodes.length) add(i, 'siteCodes', 'invalid');
      if (!role.allowLAOs && b.laoIds.length) add(i, 'laoIds', 'invalid');
      if (role.siteRequired && b.siteCodes.length + b.laoIds.length === 0) {
        add(i, 'siteCodes', MESSAGES.access.atLeastOneSite);
        add(i, 'laoIds', MESSAGES.access.atLeastOneSite);
      }
      if (role.studyRequired && b.studyNames.length === 0) add(i, 'studyNames', MESSAGES.access.atLeastOneStudy);
    }
    if (b.siteCodes.some((c) => !ref.aoCodes.has(c))) add(i, 'siteCodes', 'unknown');
    if (b.laoIds.some((c) => !ref.laoCodes.has(c))) add(i, 'laoIds', 'unknown');
    if (b.studyNames.some((s) => !ref.studies.has(s))) add(i, 'studyNames', 'unknown');
    if (b.systemAccessIds.some((id) => !ref.systemIds.has(id))) add(i, 'systemAccessIds', 'unknown');
    if (ref.fixedSystemIds.some((id) => !b.systemAccessIds.includes(id))) {
      add(i, 'systemAccessIds', MESSAGES.access.fixedSystemRequired);
    }
    if (typeof b.accessEndDate === 'string' && ref.endDates) {
      const problem = accessEndDateProblem(b.accessEndDate, ref.endDates);
      if (problem) add(i, 'accessEndDate', problem);
    }
  });
  return errors;
}
