/** Public reference data (000 §7 Reference data; 001 §7 Systems, Study roles). */
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../deps';
import { siteView, studyRoleView, systemView } from '../services/views';

export function registerReferenceRoutes(app: FastifyInstance, deps: Deps): void {
  const { prisma } = deps;

  app.get('/rest/public/health', async () => {
    await prisma.$queryRaw`SELECT 1`;
    return { status: 'ok' };
  });

  app.get('/rest/public/sites', async () => {
    const sites = await prisma.site.findMany({ orderBy: [{ siteCode: 'asc' }, { siteType: 'asc' }] });
    return sites.map(siteView);
  });

  app.get('/rest/public/studies', async () => {
    const studies = await prisma.study.findMany({ where: { active: true }, orderBy: { study: 'asc' } });
    return studies.map((s) => ({ study: s.study }));
  });

  app.get('/rest/public/site_relation', async () => {
    const rows = await prisma.siteRelation.findMany({ where: { active: true }, orderBy: { id: 'asc' } });
    return rows.map((r) => ({
      id: r.id,
      active: r.active,
      dchng: r.dchng.toISOString(),
      sysdat: r.sysdat.toISOString(),
      lao: { laoCode: r.laoCode },
      site: { siteCode: r.siteCode },
      study: { study: r.studyName },
    }));
  });

  app.get('/rest/public/user_registration/study_roles/', async () => {
    const roles = await prisma.studyRole.findMany({
      where: { inactive: false },
      include: { systems: true },
      orderBy: [{ sort: 'asc' }, { roleName: 'asc' }],
    });
    return roles.map(studyRoleView);
  });

  app.get('/rest/public/user_registration/system_accesses/', async () => {
    const systems = await prisma.systemAccess.findMany({
      where: { inactive: false },
      orderBy: [{ sort: 'asc' }, { systemName: 'asc' }],
    });
    return systems.map(systemView);
  });
}
