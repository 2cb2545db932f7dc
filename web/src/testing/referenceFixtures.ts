import type { Site, StudyRole, System } from '@portal/contract';
import { reply, type Handler } from './mockApi';

/**
 * Reference lists for component tests of screens with role blocks (000 §3 Reference data): two study roles
 * (one needing sites and studies, one with its site selectors disabled), the fixed 'Portal Gateway' system
 * and one more, an LAO, an AO and two studies, with `referenceHandlers` answering their public calls.
 */
export const studyRolesFixture: StudyRole[] = [
  {
    id: 1,
    roleName: 'Investigator',
    description: 'Leads a study at a site',
    siteRequired: true,
    studyRequired: true,
    allowAOs: true,
    allowLAOs: true,
    systemAccessIds: [2],
    inactive: false,
    sort: 0,
  },
  {
    id: 2,
    roleName: 'Data Manager',
    description: 'Works with the data of every site',
    siteRequired: false,
    studyRequired: false,
    allowAOs: false,
    allowLAOs: false,
    systemAccessIds: [],
    inactive: false,
    sort: 1,
  },
];

export const systemsFixture: System[] = [
  { id: 1, systemName: 'Portal Gateway', description: '', inactive: false, sort: 0 },
  { id: 2, systemName: 'Study Data Capture', description: '', inactive: false, sort: 1 },
];

const site = (siteCode: string, siteName: string, type: 'AO' | 'LAO', otherIdentifier: string | null): Site => ({
  siteCode,
  siteName,
  siteStatus: 'ACTIVE',
  siteType: type,
  type,
  description: null,
  otherIdentifier,
});

export const sitesFixture: Site[] = [
  site('L100', 'North Lead', 'LAO', 'NLAO'),
  site('A200', 'East Clinic', 'AO', null),
];

export const referenceHandlers: Record<string, Handler> = {
  'GET /rest/public/user_registration/study_roles/': () => reply(200, studyRolesFixture),
  'GET /rest/public/user_registration/system_accesses/': () => reply(200, systemsFixture),
  'GET /rest/public/sites': () => reply(200, sitesFixture),
  'GET /rest/public/studies': () => reply(200, [{ study: 'STUDY-1' }, { study: 'STUDY-2' }]),
};
