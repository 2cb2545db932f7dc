import { Stack } from '@mantine/core';
import { MESSAGES, type AccessModRequest } from '@portal/contract';
import { useParams } from 'react-router-dom';
import { useHasPermissions } from '../../../lib/sessionQueries';
import { StagesPanel } from '../../../shared/approval/StagesPanel';
import { useEditorReference } from '../../../shared/useAccessReference';
import { LoadError } from '../../../shared/ErrorAlert';
import { PageLoader } from '../../../shared/PageLoader';
import { useSystems } from '../../../shared/referenceData';
import { useAccessChangeRequest } from '../api/getAccessChangeRequest';
import { useReviewSubject } from '../api/getReviewSubject';
import { useAssignablePortalRoles } from '../../shared/api/getPortalRoles';
import { ReviewShell } from '../../shared/review/ReviewShell';
import { useCarriedReload } from '../../shared/review/useCarriedReload';
import { RequestDetails } from './RequestDetails';
import { ReviewForm, type ReviewValues } from './ReviewForm';

const TITLE = 'Review Access Change Request';

/** The review form once the requested user, the portal roles and the role blocks' reference data are loaded. */
function ReviewSection({
  request,
  canEdit,
  carried,
  onReload,
}: {
  request: AccessModRequest;
  canEdit: boolean;
  carried?: Partial<ReviewValues>;
  onReload: (kept: Partial<ReviewValues>) => void;
}) {
  const subject = useReviewSubject(request.subjectUserId);
  const roles = useAssignablePortalRoles();
  const reference = useEditorReference();
  if (subject.isError)
    return <LoadError text={MESSAGES.access.loadAccessFailed} onRetry={() => void subject.refetch()} />;
  if (roles.isError) return <LoadError text="Problem loading portal roles." onRetry={() => void roles.refetch()} />;
  if (reference.failed) return <LoadError text="Problem loading the access options." onRetry={reference.retry} />;
  // While the user is (re)loaded the form waits: it is built from their current roles and access.
  if (!subject.data || subject.isFetching || !roles.data || !reference.data) {
    return <PageLoader label="Loading the user's access" />;
  }
  return (
    <ReviewForm
      // A reload after a stale save brings the request and the user's roles and access afresh.
      key={`${request.id}-${request.versionno}-${subject.dataUpdatedAt}`}
      request={request}
      subject={subject.data}
      portalRoles={roles.data}
      reference={reference.data}
      canEdit={canEdit}
      carried={carried}
      onReload={(kept) => {
        void subject.refetch();
        onReload(kept);
      }}
    />
  );
}

/**
 * Review Access Change Request /app/user-requests/access-change/:id (001 §2.8): READ_USERS sees it, WRITE_USERS
 * edits the user's current access and portal roles (effective on saving) and the request's status, reviewer
 * comments and external ticket number. A request with approval stages shows them under its details.
 */
export function ReviewAccessChangePage() {
  const id = Number(useParams().id);
  const canEdit = useHasPermissions('WRITE_USERS');
  const systems = useSystems();
  const request = useAccessChangeRequest(id);
  const reload = useCarriedReload<ReviewValues>(() => request.refetch());
  return (
    <ReviewShell title={TITLE} id={id} request={request}>
      {(data) => (
        <Stack gap="md">
          <RequestDetails request={data} systems={systems.data} />
          {data.approval && <StagesPanel approval={data.approval} />}
          <ReviewSection request={data} canEdit={canEdit} {...reload} />
        </Stack>
      )}
    </ReviewShell>
  );
}
