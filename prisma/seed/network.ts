/**
 * A realistic research network: 8 LAOs (each also listed as an AO with the same siteCode, 000 §3 Site),
 * 48 further AOs affiliated with them, 36 studies and LAO-site-study relations. Deterministic (seeded faker).
 */
import type { Faker } from '@faker-js/faker';
import type { PrismaClient } from '../src';

const LAOS = [
  ['MA036', 'Dana Harbor Cancer Institute LAO'],
  ['NY016', 'Hudson Valley Comprehensive Cancer Center LAO'],
  ['OH007', 'Lakeshore University Cancer Consortium LAO'],
  ['TX035', 'Gulf Coast Oncology Research LAO'],
  ['CA043', 'Pacific Crest Cancer Center LAO'],
  ['MN026', 'North Star Clinical Trials LAO'],
  ['NC010', 'Piedmont Cancer Network LAO'],
  ['WA008', 'Cascade Oncology Alliance LAO'],
] as const;

const SUFFIXES = [
  'Medical Center',
  'University Hospital',
  'Cancer Institute',
  'Health System',
  'Regional Hospital',
  'Oncology Associates',
];
const STUDY_PREFIXES = ['A0', 'EA', 'NRG-GY0', 'S', 'ACCL', 'AHOD'];

export interface Network {
  laoCodes: string[];
  aoCodes: string[];
  studies: string[];
  /** AO siteCode → its LAO code. */
  laoOf: Map<string, string>;
}

export async function seedNetwork(prisma: PrismaClient, faker: Faker): Promise<Network> {
  const laoCodes = LAOS.map(([code]) => code);
  const aoCodes: string[] = [];
  const laoOf = new Map<string, string>();
  for (const [code, name] of LAOS) {
    await prisma.site.create({
      data: {
        siteCode: code,
        siteName: name,
        siteType: 'LAO',
        laoCode: code,
        description: `Lead academic organization ${code}`,
      },
    });
    await prisma.site.create({ data: { siteCode: code, siteName: name.replace(/ LAO$/, ''), siteType: 'AO' } });
    aoCodes.push(code);
    laoOf.set(code, code);
  }
  const used = new Set(aoCodes);
  for (let i = 0; i < 48; i++) {
    const state = faker.location.state({ abbreviated: true });
    let code = `${state}${String(faker.number.int({ min: 100, max: 999 }))}`;
    while (used.has(code)) code = `${state}${String(faker.number.int({ min: 100, max: 999 }))}`;
    used.add(code);
    const name = `${faker.location.city()} ${faker.helpers.arrayElement(SUFFIXES)}`;
    await prisma.site.create({ data: { siteCode: code, siteName: name, siteType: 'AO' } });
    aoCodes.push(code);
    laoOf.set(code, laoCodes[i % laoCodes.length]!);
  }
  const studies = new Set<string>();
  while (studies.size < 36) {
    studies.add(
      `${faker.helpers.arrayElement(STUDY_PREFIXES)}${faker.number.int({ min: 10, max: 99 })}${faker.number.int({ min: 1, max: 9 })}`,
    );
  }
  const studyList = [...studies].sort();
  await prisma.study.createMany({ data: studyList.map((study) => ({ study })) });
  const relations = aoCodes.flatMap((site) =>
    faker.helpers
      .arrayElements(studyList, { min: 3, max: 6 })
      .map((studyName) => ({ laoCode: laoOf.get(site)!, siteCode: site, studyName })),
  );
  await prisma.siteRelation.createMany({ data: relations, skipDuplicates: true });
  return { laoCodes, aoCodes, studies: studyList, laoOf };
}
