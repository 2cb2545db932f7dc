import { Stack, Tabs, Title } from '@mantine/core';
import { useSearchParams } from 'react-router-dom';
import { ApprovalPoliciesTab } from './approval-policies/ApprovalPoliciesTab';
import { useHasPermissions } from '../lib/sessionQueries';
import { usePageTitle } from '../shared/usePageTitle';
import { CategoriesTab } from './dashboard/CategoriesTab';
import { ItemsTab } from './dashboard/ItemsTab';
import { PortalRolesTab } from './PortalRolesTab';
import { StudyRolesTab } from './StudyRolesTab';
import { SystemsTab } from './SystemsTab';

const TABS = [
  { value: 'portalRoles', label: 'Portal Roles' },
  { value: 'studyRoles', label: 'Study Roles' },
  { value: 'systems', label: 'Systems' },
  // The dashboard's resources (issue 23): ADMIN only.
  { value: 'resourceCategories', label: 'Dashboard Categories', admin: true },
  { value: 'dashboardItems', label: 'Dashboard Items', admin: true },
  // Approval policies and study approvers: ADMIN only.
  { value: 'approvalPolicies', label: 'Approval policies', admin: true },
] as const;
type Tab = (typeof TABS)[number]['value'];

/**
 * Configuration /app/configure/?tab=portalRoles|studyRoles|systems (001 §2.12), and for ADMIN
 * resourceCategories|dashboardItems (issue 23). READ_USERS views it; the create buttons and editors' changes
 * need ADMIN (docs/decisions.md). The tab lives in the URL.
 */
export function ConfigurePage() {
  const [search, setSearch] = useSearchParams();
  const isAdmin = useHasPermissions('ADMIN');
  const tabs = TABS.filter((t) => !('admin' in t) || isAdmin);
  const tab: Tab = tabs.find((t) => t.value === search.get('tab'))?.value ?? 'portalRoles';
  usePageTitle(`Configure ${TABS.find((t) => t.value === tab)!.label}`);
  return (
    <Stack gap="md">
      <Title order={1}>Configure</Title>
      <Tabs value={tab} onChange={(v) => v && setSearch({ tab: v }, { replace: true })} keepMounted={false}>
        <Tabs.List>
          {tabs.map((t) => (
            <Tabs.Tab key={t.value} value={t.value}>
              {t.label}
            </Tabs.Tab>
          ))}
        </Tabs.List>
        <Tabs.Panel value="portalRoles" pt="md">
          <PortalRolesTab />
        </Tabs.Panel>
        <Tabs.Panel value="studyRoles" pt="md">
          <StudyRolesTab />
        </Tabs.Panel>
        <Tabs.Panel value="systems" pt="md">
          <SystemsTab />
        </Tabs.Panel>
        {isAdmin && (
          <>
            <Tabs.Panel value="resourceCategories" pt="md">
              <CategoriesTab />
            </Tabs.Panel>
            <Tabs.Panel value="dashboardItems" pt="md">
              <ItemsTab />
            </Tabs.Panel>
            <Tabs.Panel value="approvalPolicies" pt="md">
              <ApprovalPoliciesTab />
            </Tabs.Panel>
          </>
        )}
      </Tabs>
    </Stack>
  );
}
