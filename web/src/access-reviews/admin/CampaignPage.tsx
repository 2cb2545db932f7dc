import { Anchor, Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { modals } from '@mantine/modals';
import { ACCESS_REVIEW_MESSAGES, type AccessReviewCampaignDetail } from '@portal/contract';
import { useState, type ReactNode } from 'react';
import { Link, useLocation, useParams } from 'react-router-dom';
import { ApiError } from '../../lib/apiClient';
import { paths } from '../../lib/paths';
import { saveDownloadedFile } from '../../lib/saveFile';
import { LoadError, MessageAlert, type PageMessage } from '../../shared/ErrorAlert';
import { PageLoader } from '../../shared/PageLoader';
import { systemNames, useSystems } from '../../shared/referenceData';
import { StatusPage } from '../../shared/StatusPage';
import { usePageTitle } from '../../shared/usePageTitle';
import { useCampaign, useDownloadDecisions, useEndCampaign } from '../api/campaigns';
import { CampaignCounts, CampaignDefinition, ChartTable } from './CampaignFacts';
import { chartLines, DecisionsChart } from './DecisionsChart';
import { CampaignStatusBadge, TemporalLink } from './parts';
import { isSignatureRequired, isSigningError, sendSigned } from '../../lib/signature';
import { openSigningDialog } from '../../shared/signature/openSigningDialog';
import { meaningsFor, useSignatureSettings } from '../../shared/signature/useSignatureSettings';

/** What each ending does, said in its confirmation dialog. */
const ENDINGS = {
  close: {
    title: 'Close the campaign now?',
    text: (c: AccessReviewCampaignDetail) =>
      `Reviewers can no longer decide. The ${c.undecided} undecided item(s) get the default (${c.defaultDecision === 'KEEP' ? 'Keep' : 'Remove'}), then every access decided Remove is removed and its person is mailed. This cannot be undone.`,
    confirm: 'Close now',
    done: ACCESS_REVIEW_MESSAGES.closing,
  },
  cancel: {
    title: 'Cancel the campaign?',
    text: () =>
      'The campaign ends without applying any decision: nothing is removed, whatever the reviewers decided. This cannot be undone.',
    confirm: 'Cancel campaign',
    done: ACCESS_REVIEW_MESSAGES.cancelled,
  },
} as const;

/** The failure of a call, as a page message (the server's sentence when it gave one). */
const failure = (text: string, error: unknown): PageMessage => ({
  kind: 'error',
  text,
  details: error instanceof ApiError ? [error.message, ...error.globalErrors].filter(Boolean) : [],
});

/**
 * One campaign /app/access-review-campaigns/:id (issue 25, ADMIN): its status and counts, the decisions by
 * reviewer and undecided items by pool (chart and table), its definition, 'Download decisions (CSV)', 'Close
 * now' and 'Cancel campaign' (each confirmed with its consequence) and the workflow in the Temporal UI. It
 * re-reads itself while the campaign starts or closes.
 */
export function CampaignPage() {
  const id = Number(useParams().id);
  const location = useLocation();
  const [message, setMessage] = useState<PageMessage | null>(() => {
    const text = (location.state as { message?: string } | null)?.message;
    return text ? { kind: 'success', text } : null;
  });
  const end = useEndCampaign({
    mutationConfig: {
      onSuccess: (_, v) => setMessage({ kind: 'info', text: ENDINGS[v.how].done }),
      onError: (error, v) => {
        // The signing dialog shows its own refusals; a close the API wants signed asks for the signature.
        if (isSigningError(error)) return;
        if (isSignatureRequired(error) && v.how === 'close') return askCloseSignature(true);
        setMessage(failure(ACCESS_REVIEW_MESSAGES.alreadyClosing, error));
      },
    },
  });
  const signatures = useSignatureSettings(true);
  /** A person's close of the campaign is signed (CAMPAIGN_CLOSE); its cancel is not a decision on access. */
  const askCloseSignature = (required: boolean, question?: ReactNode) =>
    openSigningDialog({
      title: ENDINGS.close.title,
      action: 'CAMPAIGN_CLOSE',
      meanings: meaningsFor(signatures, 'CAMPAIGN_CLOSE'),
      labels: { confirm: ENDINGS.close.confirm, cancel: 'Keep it open' },
      required,
      children: question,
      onSign: (credentials) => sendSigned(credentials, () => end.mutateAsync({ id, how: 'close' })),
    });
  const campaign = useCampaign(id, end.isSuccess);
  const systems = useSystems();
  usePageTitle(campaign.data?.name ?? 'Access Review Campaign');
  const download = useDownloadDecisions({
    mutationConfig: {
      onSuccess: (file) =>
        setMessage({
          kind: 'success',
          text: `Decisions downloaded: ${saveDownloadedFile(file, `access-review-${id}-decisions.csv`)}`,
        }),
      onError: (error) => setMessage(failure('Unable to download the decisions.', error)),
    },
  });

  if (campaign.isPending) return <PageLoader label="Loading the campaign" />;
  if (campaign.isError) {
    if (campaign.error instanceof ApiError && campaign.error.status === 404) {
      return (
        <StatusPage
          title="Campaign Not Found"
          text="There is no access review campaign with this number."
          onward={{ label: 'Go to Access Review Campaigns', to: paths.app.accessReviewCampaigns.href() }}
        />
      );
    }
    return <LoadError text={ACCESS_REVIEW_MESSAGES.loadCampaign} onRetry={() => void campaign.refetch()} />;
  }
  const c = campaign.data;
  const lines = chartLines(c);
  // The close's 'closing' note holds while it closes; once closed, the page says what the close did.
  const shown: PageMessage | null =
    message?.text === ACCESS_REVIEW_MESSAGES.closing && c.status === 'CLOSED'
      ? {
          kind: 'success',
          text: `The campaign closed: ${c.removedCount} access record(s) removed, ${c.keptCount} kept, ${c.changedCount} changed since the review started.`,
        }
      : message;
  const endable = c.status === 'OPEN' || c.status === 'STARTING';
  const confirm = (how: 'close' | 'cancel') =>
    how === 'close' && signatures.enabled
      ? askCloseSignature(false, <Text size="sm">{ENDINGS.close.text(c)}</Text>)
      : modals.openConfirmModal({
          title: ENDINGS[how].title,
          children: <Text size="sm">{ENDINGS[how].text(c)}</Text>,
          labels: { confirm: ENDINGS[how].confirm, cancel: 'Keep it open' },
          confirmProps: { color: how === 'cancel' ? 'red' : undefined },
          onConfirm: () => end.mutate({ id, how }),
        });

  return (
    <Stack gap="md">
      <Anchor component={Link} to={paths.app.accessReviewCampaigns.href()} size="sm">
        &larr; Back to Access Review Campaigns
      </Anchor>
      <Group gap="sm" align="center">
        <Title order={1}>{c.name}</Title>
        <CampaignStatusBadge status={c.status} />
      </Group>
      <MessageAlert message={shown} onClose={() => setMessage(null)} />
      <Group gap="sm" wrap="wrap">
        <Button variant="default" loading={download.isPending} onClick={() => download.mutate(id)}>
          Download decisions (CSV)
        </Button>
        {c.status === 'OPEN' && (
          <Button onClick={() => confirm('close')} loading={end.isPending && end.variables?.how === 'close'}>
            Close now
          </Button>
        )}
        {endable && (
          <Button
            color="red"
            variant="light"
            onClick={() => confirm('cancel')}
            loading={end.isPending && end.variables?.how === 'cancel'}
          >
            Cancel campaign
          </Button>
        )}
        <TemporalLink url={c.workflowUrl} label="Open workflow in Temporal UI" />
      </Group>
      <Paper withBorder p="md" component="section" aria-labelledby="campaign-progress-title">
        <Stack gap="md">
          <Title order={2} size="h3" id="campaign-progress-title">
            Progress
          </Title>
          <CampaignCounts c={c} />
          {lines.length > 0 ? (
            <>
              <DecisionsChart lines={lines} />
              <ChartTable lines={lines} />
            </>
          ) : (
            <Text size="sm" c="dimmed">
              No decisions yet.
            </Text>
          )}
        </Stack>
      </Paper>
      <Paper withBorder p="md" component="section" aria-labelledby="campaign-definition-title">
        <Title order={2} size="h3" id="campaign-definition-title" mb="sm">
          Definition
        </Title>
        <CampaignDefinition c={c} systemNames={systemNames(c.scope.systemAccessIds, systems.data)} />
      </Paper>
    </Stack>
  );
}
