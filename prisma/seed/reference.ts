/**
 * Reference records: countries and their subdivisions (ISO 3166-1 / 3166-2, from country-state-city),
 * systems with the fixed 'Portal Gateway', study roles including 'LAO Staff', portal roles including
 * 'Administrator' and 'Proxy Access-Change Request User' (000 §3, §6; 001 §6).
 */
import { Country, State } from 'country-state-city';
import type { Permission, PrismaClient } from '../src';

export const SYSTEMS: Array<{ systemName: string; description: string; fixed?: boolean }> = [
  { systemName: 'Portal Gateway', description: 'The network portal itself; every user has it.', fixed: true },
  { systemName: 'Electronic Data Capture', description: 'Case report forms and study data entry.' },
  { systemName: 'Randomization', description: 'Patient enrollment and treatment assignment.' },
  { systemName: 'Drug Supply Management', description: 'Investigational agent ordering and accountability.' },
  { systemName: 'Adverse Event Reporting', description: 'Expedited safety reporting.' },
  { systemName: 'Document Repository', description: 'Protocols, amendments and regulatory documents.' },
  { systemName: 'Specimen Tracking', description: 'Biospecimen shipment and inventory.' },
];

export const STUDY_ROLES: Array<{
  roleName: string;
  description: string;
  siteRequired: boolean;
  studyRequired: boolean;
  allowAOs: boolean;
  allowLAOs: boolean;
  systems: string[];
}> = [
  {
    roleName: 'LAO Staff',
    description: 'Staff of a lead academic organization who manage its affiliates and file requests for them.',
    siteRequired: true,
    studyRequired: false,
    allowAOs: false,
    allowLAOs: true,
    systems: ['Portal Gateway', 'Document Repository'],
  },
  {
    roleName: 'Site Investigator',
    description: 'Investigator enrolling and treating patients at an affiliate.',
    siteRequired: true,
    studyRequired: true,
    allowAOs: true,
    allowLAOs: true,
    systems: ['Portal Gateway', 'Electronic Data Capture', 'Randomization'],
  },
  {
    roleName: 'Clinical Research Associate',
    description: 'Coordinates study conduct and data submission at a site.',
    siteRequired: true,
    studyRequired: true,
    allowAOs: true,
    allowLAOs: true,
    systems: ['Portal Gateway', 'Electronic Data Capture'],
  },
  {
    roleName: 'Research Pharmacist',
    description: 'Manages investigational agents at a site.',
    siteRequired: true,
    studyRequired: false,
    allowAOs: true,
    allowLAOs: true,
    systems: ['Portal Gateway', 'Drug Supply Management'],
  },
  {
    roleName: 'Data Manager',
    description: 'Reviews and cleans study data across sites.',
    siteRequired: false,
    studyRequired: true,
    allowAOs: true,
    allowLAOs: true,
    systems: ['Portal Gateway', 'Electronic Data Capture'],
  },
  {
    roleName: 'Study Statistician',
    description: 'Analyses study data; no site affiliation.',
    siteRequired: false,
    studyRequired: true,
    allowAOs: false,
    allowLAOs: false,
    systems: ['Portal Gateway'],
  },
  {
    roleName: 'Biospecimen Coordinator',
    description: 'Ships and tracks specimens for a site.',
    siteRequired: true,
    studyRequired: true,
    allowAOs: true,
    allowLAOs: false,
    systems: ['Portal Gateway', 'Specimen Tracking'],
  },
  {
    roleName: 'Safety Reviewer',
    description: 'Reviews adverse event reports network-wide.',
    siteRequired: false,
    studyRequired: false,
    allowAOs: false,
    allowLAOs: false,
    systems: ['Portal Gateway', 'Adverse Event Reporting'],
  },
];

export const PORTAL_ROLES: Array<{ description: string; permissions: Permission[]; sort: number }> = [
  { description: 'Administrator', permissions: ['ADMIN'], sort: 1 },
  { description: 'User Support', permissions: ['WRITE_USERS'], sort: 2 },
  { description: 'User Support Read-Only', permissions: ['READ_USERS'], sort: 3 },
  { description: 'Network User', permissions: ['USER'], sort: 4 },
  { description: 'Password Self-Service', permissions: ['SET_OWN_PASSWORD'], sort: 5 },
  { description: 'Proxy Access-Change Request User', permissions: ['USER'], sort: 6 },
];

export async function seedCountries(prisma: PrismaClient): Promise<void> {
  await prisma.country.createMany({
    data: Country.getAllCountries().map((c) => ({ country: c.isoCode, countryName: c.name })),
    skipDuplicates: true,
  });
  await prisma.state.createMany({
    data: State.getAllStates()
      .filter((s) => s.isoCode.length <= 8)
      .map((s) => ({ country: s.countryCode, state: s.isoCode, stateName: s.name })),
    skipDuplicates: true,
  });
}

export async function seedRoles(prisma: PrismaClient): Promise<void> {
  for (const [i, s] of SYSTEMS.entries()) {
    await prisma.systemAccess.create({ data: { ...s, fixed: s.fixed ?? false, sort: i } });
  }
  const systems = await prisma.systemAccess.findMany();
  const idOf = (name: string) => systems.find((s) => s.systemName === name)!.id;
  for (const [i, { systems: names, ...role }] of STUDY_ROLES.entries()) {
    await prisma.studyRole.create({
      data: { ...role, sort: i, systems: { create: names.map((n) => ({ systemId: idOf(n) })) } },
    });
  }
  await prisma.portalRole.createMany({ data: PORTAL_ROLES });
}
