import { Anchor, Stack, Title } from '@mantine/core';
import { MESSAGES, relationIndex } from '@portal/contract';
import { useMemo } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import { paths } from '../../../lib/paths';
import { useOwnAccess, useOwnRequests, useProfile } from '../../../lib/sessionQueries';
import { PageLoader } from '../../../shared/PageLoader';
import { usePendingRoleNames } from '../../../shared/pendingRoles';
import { LoadError } from '../../../shared/ErrorAlert';
import {
  siteOptions,
  useSiteRelations,
  useSites,
  useStudies,
  useStudyRoles,
  useSystems,
} from '../../../shared/referenceData';
import { usePageTitle } from '../../../shared/usePageTitle';
import { RequestAccessForm } from './RequestAccessForm';

/**
 * Request New Access / Request Modified Access (001 §2.5): /app/profile/request-new-or-modified-access with
 * accessRequestType NEW (userId, initStudyRoleNamesInUse; systemId preselects a system, issue 22) or UPDATE
 * (userId, existingUserAccessId).
 * Loads what the form needs, then hands over to RequestAccessForm. The LAO-site-study relations only narrow
 * the options (000 §5): while they load, or after a failed load (shown with its retry), every option is offered.
 */
export function RequestAccessPage() {
  const [search] = useSearchParams();
  const isUpdate = search.get('accessRequestType') === 'UPDATE';
  const title = isUpdate ? 'Request Modified Access' : 'Request New Access';
  usePageTitle(title);

  const profile = useProfile();
  const access = useOwnAccess();
  const requests = useOwnRequests();
  const studyRoles = useStudyRoles();
  const sites = useSites();
  const studies = useStudies();
  const systems = useSystems();
  const relations = useSiteRelations();
  const relationsIndex = useMemo(() => (relations.data ? relationIndex(relations.data) : null), [relations.data]);

  const options = useMemo(() => siteOptions(sites.data ?? []), [sites.data]);
  const studyNames = useMemo(() => (studies.data ?? []).map((s) => s.study), [studies.data]);
  const pendingRoles = usePendingRoleNames(requests.data);

  const failures: [unknown, string, () => unknown][] = [
    [profile.error, 'Problem loading your profile.', profile.refetch],
    [access.error, MESSAGES.access.loadAccessFailed, access.refetch],
    [requests.error, MESSAGES.access.loadRequestsFailed, requests.refetch],
    [studyRoles.error, 'Problem loading study-roles.', studyRoles.refetch],
    [sites.error, MESSAGES.referenceData.sites, sites.refetch],
    [studies.error, MESSAGES.referenceData.studies, studies.refetch],
    [systems.error, 'Problem loading systems.', systems.refetch],
  ];
  const failed = failures.filter(([error]) => !!error);

  let body;
  if (failed.length) {
    body = failed.map(([, text, retry]) => <LoadError key={text} text={text} onRetry={() => void retry()} />);
  } else if (
    !profile.data ||
    !access.data ||
    !requests.data ||
    !studyRoles.data ||
    !sites.data ||
    !studies.data ||
    !systems.data
  ) {
    body = <PageLoader label="Loading the request form" />;
  } else {
    const existingId = Number(search.get('existingUserAccessId'));
    const existing = isUpdate ? access.data.find((a) => a.id === existingId) : undefined;
    if (isUpdate && !existing) {
      body = <LoadError text={MESSAGES.access.loadAccessFailed} />;
    } else {
      const rolesInUse = new Set([
        ...(search.get('initStudyRoleNamesInUse') ?? '').split(',').filter(Boolean),
        ...access.data.map((a) => a.roleName),
      ]);
      // A NEW request may name a system to preselect (issue 22: 'Request access to <system>'); only a known one.
      const systemId = search.get('systemId') ?? '';
      const preselected = !isUpdate && systems.data.some((s) => String(s.id) === systemId) ? systemId : undefined;
      body = (
        <RequestAccessForm
          key={search.toString()}
          profile={profile.data}
          existing={existing}
          rolesInUse={rolesInUse}
          pendingRoles={pendingRoles}
          studyRoles={studyRoles.data}
          sites={options}
          studyNames={studyNames}
          systems={systems.data}
          relations={relationsIndex}
          preselectedSystemId={preselected}
        />
      );
    }
  }

  return (
    <Stack gap="md">
      <Anchor component={Link} to={paths.app.profile.href('access')} size="sm">
        <span aria-hidden>← </span>
        Back to Profile
      </Anchor>
      <Title order={1}>{title}</Title>
      {relations.error && (
        <LoadError text={MESSAGES.referenceData.relations} onRetry={() => void relations.refetch()} />
      )}
      {body}
    </Stack>
  );
}
