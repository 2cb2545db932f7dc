import { Alert, Group, Pagination, Stack, Text, Title } from '@mantine/core';
import {
  ACCESS_REVIEW_MESSAGES,
  translateFieldErrors,
  type AccessReviewDecision,
  type AccessReviewDecisionResult,
  type AccessReviewItem,
} from '@portal/contract';
import { useEffect, useRef, useState } from 'react';
import { ApiError } from '../lib/apiClient';
import { isSignatureRequired, isSigningError, sendSigned } from '../lib/signature';
import { openSigningDialog } from '../shared/signature/openSigningDialog';
import { meaningsFor, useSignatureSettings } from '../shared/signature/useSignatureSettings';
import { LoadError, MessageAlert, type PageMessage } from '../shared/ErrorAlert';
import { PageLoader } from '../shared/PageLoader';
import { useUrlFilter, useUrlView } from '../shared/urlView';
import { usePageTitle } from '../shared/usePageTitle';
import { useDecideReviewItems, useMyAccessReviews, useReviewItems, type ItemsView } from './api/myReviews';
import { CampaignHeader } from './CampaignHeader';
import { DecisionResults, type ItemNames } from './DecisionResults';
import { DecisionToolbar } from './DecisionToolbar';
import { itemName } from './itemGroups';
import { RemoveModal } from './RemoveModal';
import { ReviewFilters, stateFromUrl } from './ReviewFilters';
import { ReviewItemsTable } from './ReviewItemsTable';

const TITLE = 'Access Reviews';
/** Items per page (the contract's default page of the reviewer's list). */
const PAGE_SIZE = 50;

interface Done {
  /** The decision was signed: an item not applied is 'Signed, not applied'. */
  signed: boolean;
  result: AccessReviewDecisionResult;
  decision: AccessReviewDecision;
  names: ItemNames;
}

/** The page's text when the caller has nothing (left) to decide. */
function NothingToReview({ reviewer, allDecided = false }: { reviewer: boolean; allDecided?: boolean }) {
  return (
    <Stack gap="xs" role="status">
      <Title order={2} size="h3">
        Nothing to review
      </Title>
      <Text size="sm">
        {allDecided
          ? 'Every item of yours in this campaign is decided. Show All to change a decision until the campaign closes.'
          : reviewer
            ? 'No access review campaign is waiting for your decisions.'
            : 'You are not a reviewer of any open access review campaign.'}
      </Text>
    </Stack>
  );
}

/**
 * Access Reviews /app/access-reviews (issue 25 "Access review campaigns"): the caller's items of one open
 * campaign (`campaignId` in the URL, as the invitation mail links it; else their first), its deadline and
 * their progress, filtered by text and state, grouped by person, decided Keep or Remove one by one, by page or
 * by filter, with per-item results. A campaign no longer open (closed, cancelled) shows its items' outcomes
 * read-only.
 */
export function AccessReviewsPage() {
  usePageTitle(TITLE);
  const mine = useMyAccessReviews();
  const { search, update } = useUrlView();
  const [filterBox, setFilterBox] = useUrlFilter(search, update);
  const filter = search.get('filter') ?? '';
  const urlId = Number(search.get('campaignId')) || null;
  const open = mine.data?.campaigns ?? [];
  const campaign = urlId === null ? open[0] : open.find((c) => c.id === urlId);
  const campaignId = urlId ?? campaign?.id ?? null;
  const readOnly = !!mine.data && campaignId !== null && !campaign;
  const state = readOnly ? 'ALL' : stateFromUrl(search.get('state'));
  const page = Math.max(1, Number(search.get('page')) || 1);
  const view: ItemsView | null =
    campaignId !== null && mine.data ? { campaignId, page, size: PAGE_SIZE, state, filter } : null;
  const items = useReviewItems(view);

  const [selected, setSelected] = useState<Map<number, AccessReviewItem>>(new Map());
  const [applyAll, setApplyAll] = useState(false);
  const [removing, setRemoving] = useState(false);
  const [commentError, setCommentError] = useState<string | null>(null);
  const [done, setDone] = useState<Done | null>(null);
  const [message, setMessage] = useState<PageMessage | null>(null);
  // A selection belongs to one view: another campaign, filter, state or page starts afresh.
  useEffect(() => {
    setSelected(new Map());
    setApplyAll(false);
  }, [campaignId, filter, state, page]);

  const decide = useDecideReviewItems({
    mutationConfig: {
      onMutate: () => {
        setMessage(null);
        setCommentError(null);
      },
      onSuccess: (result, body) => {
        const names = new Map([...selected.values(), ...(items.data?.content ?? [])].map((i) => [i.id, itemName(i)]));
        setDone({ result, decision: body.decision, names, signed: signedSend.current });
        setSelected(new Map());
        setApplyAll(false);
        setRemoving(false);
      },
      onError: (error, body) => {
        // The signing dialog shows its own refusals; a decision the API wants signed asks for the signature.
        if (isSigningError(error)) return;
        if (isSignatureRequired(error)) return askSignature(body, true);
        if (error instanceof ApiError && error.fieldErrors.comment) {
          setCommentError(translateFieldErrors('Comment', error.fieldErrors.comment));
          return;
        }
        setRemoving(false);
        const details = error instanceof ApiError ? [...error.globalErrors] : [];
        if (error.message && !(error instanceof ApiError && error.status === 422)) details.push(error.message);
        setMessage({ kind: 'error', text: ACCESS_REVIEW_MESSAGES.decideFailed, details });
      },
    },
  });

  const signatures = useSignatureSettings(!!mine.data?.reviewer);
  const signedSend = useRef(false);
  /** A bulk decision is signed once (ACCESS_REVIEW_DECISION), the signature naming every item it decides. */
  function askSignature(body: Parameters<typeof decide.mutate>[0], required: boolean) {
    openSigningDialog({
      action: 'ACCESS_REVIEW_DECISION',
      meanings: meaningsFor(signatures, 'ACCESS_REVIEW_DECISION'),
      required,
      onSign: (credentials) => {
        signedSend.current = true;
        return sendSigned(credentials, () => decide.mutateAsync(body));
      },
    });
  }

  if (mine.isPending) return <PageLoader label="Loading your access reviews" />;
  if (mine.isError) {
    return (
      <Stack gap="md">
        <Title order={1}>{TITLE}</Title>
        <LoadError text={ACCESS_REVIEW_MESSAGES.loadCampaigns} onRetry={() => void mine.refetch()} />
      </Stack>
    );
  }
  if (campaignId === null) {
    return (
      <Stack gap="md">
        <Title order={1}>{TITLE}</Title>
        <NothingToReview reviewer={mine.data.reviewer} />
      </Stack>
    );
  }

  const total = items.data?.totalElements ?? 0;
  const count = applyAll ? total : selected.size;
  const send = (decision: AccessReviewDecision, comment?: string) => {
    const body = {
      campaignId,
      decision,
      comment,
      ...(applyAll ? { filter: { text: filter || undefined, state } } : { itemIds: [...selected.keys()] }),
    };
    if (signatures.enabled) return askSignature(body, false);
    signedSend.current = false;
    decide.mutate(body);
  };
  const select = (ids: number[], on: boolean) =>
    setSelected((prev) => {
      const next = new Map(prev);
      for (const id of ids) {
        const item = items.data?.content.find((i) => i.id === id);
        if (on && item) next.set(id, item);
        else next.delete(id);
      }
      return next;
    });
  const first = items.data?.content[0];
  const pages = Math.max(1, Math.ceil(total / PAGE_SIZE));

  return (
    <Stack gap="md">
      <Title order={1}>{TITLE}</Title>
      <MessageAlert message={message} onClose={() => setMessage(null)} />
      {campaign ? (
        <CampaignHeader
          campaigns={open}
          campaign={campaign}
          onPick={(id) => update({ campaignId: String(id), page: null })}
        />
      ) : (
        <Alert color="gray" title={first ? first.campaignName : 'Campaign closed'} role="status">
          This campaign is no longer open: decisions can no longer be made or changed. Its items are shown with their
          outcomes.
        </Alert>
      )}
      {!readOnly && (
        <ReviewFilters
          filter={filterBox}
          onFilter={setFilterBox}
          state={state}
          onState={(s) => update({ state: s === 'UNDECIDED' ? null : s, page: null })}
        />
      )}
      {done && (
        <DecisionResults
          result={done.result}
          decision={done.decision}
          names={done.names}
          signed={done.signed}
          onDismiss={() => setDone(null)}
        />
      )}
      {items.isError ? (
        <LoadError text={ACCESS_REVIEW_MESSAGES.loadItems} onRetry={() => void items.refetch()} />
      ) : !items.data ? (
        <PageLoader label="Loading review items" />
      ) : total === 0 ? (
        filter || state !== 'UNDECIDED' ? (
          <Text role="status">No items match the filter.</Text>
        ) : (
          <NothingToReview reviewer allDecided={!readOnly} />
        )
      ) : (
        <>
          {!readOnly && (
            <DecisionToolbar
              selectedCount={selected.size}
              matching={total}
              applyAll={applyAll}
              onApplyAll={setApplyAll}
              pending={decide.isPending}
              onKeep={() => send('KEEP')}
              onRemove={() => setRemoving(true)}
            />
          )}
          <ReviewItemsTable
            items={items.data.content}
            selection={readOnly ? null : { selected: new Set(selected.keys()), onChange: select }}
          />
          <Group justify="space-between" wrap="wrap">
            <Text size="sm" role="status" aria-live="polite">
              {items.isFetching ? 'Searching' : `${items.data.content.length} of ${total} items shown`}
            </Text>
            {pages > 1 && (
              <Pagination
                total={pages}
                value={Math.min(page, pages)}
                onChange={(p) => update({ page: p === 1 ? null : String(p) })}
                getControlProps={(control) => ({ 'aria-label': `${control} page` })}
                getItemProps={(p) => ({ 'aria-label': `Page ${p}` })}
              />
            )}
          </Group>
        </>
      )}
      <RemoveModal
        opened={removing}
        count={count}
        pending={decide.isPending}
        error={commentError}
        onCancel={() => setRemoving(false)}
        onConfirm={(comment) => send('REMOVE', comment)}
      />
    </Stack>
  );
}
