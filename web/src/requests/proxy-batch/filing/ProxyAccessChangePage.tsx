import { Stack, Text, Title } from '@mantine/core';
import { PROXY_MESSAGES, type ProxyBatchDetail, type UserListRow } from '@portal/contract';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import { SUPPORT_EMAIL } from '../../../lib/config';
import { useProfile } from '../../../lib/sessionQueries';
import { LoadError } from '../../../shared/ErrorAlert';
import { PageLoader } from '../../../shared/PageLoader';
import { usePageTitle } from '../../../shared/usePageTitle';
import { proxyBatchKeys, useProxyBatch, useProxyBatches } from '../api/proxyBatches';
import { BatchProgress } from './BatchProgress';
import { ProxyRequestForm } from './ProxyRequestForm';
import { useAccessReference } from '../../../shared/useAccessReference';
import { UserPicker } from './UserPicker';

const TITLE = PROXY_MESSAGES.pageTitle;

/**
 * 'Request Access-Change for Other Users' /app/proxy-access-change-request (001 §2.7). Without the proxy
 * right it says the spec's sentence. Otherwise: pick a site, select users, fill the request, submit; the
 * batch then runs on the server (`proxy-batch-<id>`) and the page follows it (its id in the URL as `batch`,
 * so a reload re-attaches; on entry without one the page attaches to the proxy's batch still running).
 */
export function ProxyAccessChangePage() {
  usePageTitle(TITLE);
  const profile = useProfile();
  const reference = useAccessReference();
  const queryClient = useQueryClient();
  const [params, setParams] = useSearchParams();
  const batchParam = Number(params.get('batch'));
  const batchId = Number.isInteger(batchParam) && batchParam > 0 ? batchParam : null;
  const canSubmit = profile.data?.canSubmitProxyAccessChangeRequests.canSubmit ?? false;
  const batches = useProxyBatches(canSubmit && batchId === null);
  const batch = useProxyBatch(batchId);
  const [selected, setSelected] = useState<UserListRow[]>([]);

  const attach = (id: number | null) => setParams(id === null ? {} : { batch: String(id) }, { replace: true });
  // Re-attach to a batch that is still running (a reload without the URL, another tab).
  const running = batches.data?.find((b) => b.status === 'RUNNING');
  useEffect(() => {
    if (batchId === null && running) attach(running.id);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- attach only when a running batch appears
  }, [running?.id, batchId]);

  if (profile.isLoading) return <PageLoader />;
  if (profile.isError || !profile.data) return <LoadError text="Problem loading your profile." />;
  if (!canSubmit) {
    return (
      <Stack gap="sm">
        <Title order={1}>{TITLE}</Title>
        <Text role="status">{PROXY_MESSAGES.noPermission}</Text>
        <Text>{PROXY_MESSAGES.contactSupport.replace('User Support', `User Support (${SUPPORT_EMAIL})`)}</Text>
      </Stack>
    );
  }

  const onStarted = (started: ProxyBatchDetail) => {
    queryClient.setQueryData(proxyBatchKeys.one(started.id), started);
    void queryClient.invalidateQueries({ queryKey: proxyBatchKeys.all });
    attach(started.id);
  };
  const another = () => {
    setSelected([]);
    void queryClient.invalidateQueries({ queryKey: proxyBatchKeys.all });
    attach(null);
  };

  return (
    <Stack gap="md">
      <Title order={1}>{TITLE}</Title>
      {batchId !== null ? (
        batch.isError ? (
          <LoadError text="Problem loading proxy batch." onRetry={() => void batch.refetch()} />
        ) : !batch.data ? (
          <PageLoader label="Loading the request's progress" />
        ) : (
          <BatchProgress batch={batch.data} onAnother={another} />
        )
      ) : reference.failures.length ? (
        reference.failures.map((f) => <LoadError key={f.text} text={f.text} onRetry={f.retry} />)
      ) : !reference.reference ? (
        <PageLoader />
      ) : (
        <>
          <Text size="sm">
            Choose users at your AOs and LAOs, then request the same access for all of them. One request is filed for
            each user, one after another.
          </Text>
          <UserPicker
            profile={profile.data}
            sites={reference.reference.sites}
            selected={selected}
            onSelectedChange={setSelected}
          />
          <ProxyRequestForm reference={reference.reference} selected={selected} onStarted={onStarted} />
        </>
      )}
    </Stack>
  );
}
