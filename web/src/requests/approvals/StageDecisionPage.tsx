import { Alert, Stack } from '@mantine/core';
import { APPROVAL_TEXTS } from '@portal/contract';
import { useState } from 'react';
import { useParams } from 'react-router-dom';
import { paths } from '../../lib/paths';
import { StagesPanel } from '../../shared/approval/StagesPanel';
import { MessageAlert, type PageMessage } from '../../shared/ErrorAlert';
import { useSystems } from '../../shared/referenceData';
import { useAccessChangeRequest } from '../access-change/api/getAccessChangeRequest';
import { RequestDetails } from '../access-change/review/RequestDetails';
import { ReviewShell } from '../shared/review/ReviewShell';
import { StageDecisionForm } from './StageDecisionForm';

const BACK = {
  to: paths.app.approvals.href,
  label: `Back to ${APPROVAL_TEXTS.awaitingTitle}`,
  onward: `Go to ${APPROVAL_TEXTS.awaitingTitle}`,
};

/**
 * The stage decision page /app/approvals/:id (approval policies): the request read-only (as a reviewer without
 * WRITE_USERS sees it, without the reviewers' links), its stages, and, when the signed-in user may decide the
 * open stage, the decision form; after a decision the outcome stays shown over the fresh request.
 */
export function StageDecisionPage() {
  const id = Number(useParams().id);
  const request = useAccessChangeRequest(id);
  const systems = useSystems();
  const [result, setResult] = useState<PageMessage | null>(null);
  return (
    <ReviewShell title="Decide Approval Stage" id={id} request={request} back={BACK}>
      {(data) => {
        const approval = data.approval;
        const stage = approval?.currentStage;
        return (
          <Stack gap="md">
            <MessageAlert message={result} onClose={() => setResult(null)} />
            <RequestDetails request={data} systems={systems.data} reviewerLinks={false} />
            {approval ? (
              <StagesPanel approval={approval} />
            ) : (
              <Alert color="gray" role="status">
                This request has no approval stages.
              </Alert>
            )}
            {approval && stage && approval.mayDecide ? (
              <StageDecisionForm
                key={`${data.id}-${data.versionno}-${stage}`}
                request={data}
                stage={stage}
                onResult={setResult}
                onReload={() => void request.refetch()}
              />
            ) : (
              approval &&
              !result && (
                <Alert color="gray" role="status">
                  {stage ? APPROVAL_TEXTS.notYourStage : 'No approval stage of this request is open.'}
                </Alert>
              )
            )}
          </Stack>
        );
      }}
    </ReviewShell>
  );
}
