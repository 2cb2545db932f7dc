import { Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { modals } from '@mantine/modals';
import {
  APPROVAL_LIMITS,
  APPROVAL_TEXTS,
  APPROVER_GROUP_LABELS,
  GLOBAL_ERRORS,
  MESSAGES,
  type AccessModRequest,
  type StageDecision,
  stageSignatureAction,
  stageSignatureMeaning,
} from '@portal/contract';
import { type ReactNode, useRef, useState } from 'react';
import { ApiError } from '../../lib/apiClient';
import { isSignatureRequired, isSigningError, sendSigned, type SignatureCredentials } from '../../lib/signature';
import { openSigningDialog } from '../../shared/signature/openSigningDialog';
import { useSignatureSettings } from '../../shared/signature/useSignatureSettings';
import { CountedTextarea } from '../../shared/CountedText';
import { MessageAlert, type PageMessage } from '../../shared/ErrorAlert';
import { useAttemptKeys } from '../shared/review/attemptKey';
import { useDecideStage } from './api';

const FAILED = 'Problem saving your decision of the stage.';
const COMMENT_REQUIRED = 'A comment is required to reject the stage.';

/** What the page shows once a decision came back (kept over the fresh request's render). */
export type DecisionResult = PageMessage;

/**
 * 'Approve stage' / 'Reject stage' of the request's open stage (approval policies), shown only when the
 * request's `approval.mayDecide`: a comment (required to reject; rejecting asks first), the decision sent at the
 * request's version with an attempt key (the same key when the same decision is retried after a 202 or a lost
 * answer). The outcome goes to `onResult`; a stage decided by someone else (422 stale / `stage`) or no longer
 * this user's (403) reloads the request through `onReload`. With electronic signatures on, the decision is
 * signed with its stage's meaning ('Approved – stage n'; docs/decisions.md "Approval policies"): rejecting asks
 * in the signing dialog itself, which keeps the confirmation's question and buttons.
 */
export function StageDecisionForm({
  request,
  stage,
  onResult,
  onReload,
}: {
  request: AccessModRequest;
  /** The open stage (1-based). */
  stage: number;
  onResult: (result: DecisionResult) => void;
  onReload: () => void;
}) {
  const [comment, setComment] = useState('');
  const [commentError, setCommentError] = useState<string | null>(null);
  const [message, setMessage] = useState<PageMessage | null>(null);
  const commentRef = useRef<HTMLTextAreaElement>(null);
  const attempts = useAttemptKeys<{ decision: StageDecision; comment: string }>();
  const sent = useRef<{ values: { decision: StageDecision; comment: string }; key: string } | null>(null);
  const total = request.approval?.stages.length ?? stage;
  const group = request.approval?.stages.find((s) => s.stage === stage)?.group;

  const decide = useDecideStage({
    onMutate: () => setMessage(null),
    onSuccess: (outcome) => {
      if (outcome.kind === 'processing') {
        if (sent.current) attempts.keepOpen(sent.current.values, sent.current.key);
        setMessage({ kind: 'info', text: outcome.body?.message ?? MESSAGES.access.reviewProcessing });
        return;
      }
      attempts.close();
      const decision = sent.current?.values.decision ?? 'APPROVED';
      onResult({ kind: 'success', text: APPROVAL_TEXTS.signatureMeaning(decision, stage) });
    },
    onError: (error) => {
      // The signing dialog shows its own refusals; an unsigned decision the API wants signed asks for it.
      if (isSigningError(error)) return;
      if (isSignatureRequired(error) && sent.current) return askSignature(sent.current.values.decision, true);
      if (error instanceof ApiError && error.status === 0 && sent.current) {
        attempts.keepOpen(sent.current.values, sent.current.key);
        setMessage({ kind: 'error', text: FAILED, details: [error.message] });
        return;
      }
      attempts.close();
      if (!(error instanceof ApiError)) return setMessage({ kind: 'error', text: FAILED });
      if (error.status === 409 || error.hasGlobalError(GLOBAL_ERRORS.reviewBusy))
        return setMessage({ kind: 'warning', text: MESSAGES.access.reviewBusy });
      if (error.status === 403) {
        onResult({ kind: 'warning', text: APPROVAL_TEXTS.notYourStage });
        return onReload();
      }
      if (error.hasGlobalError(GLOBAL_ERRORS.staleVersion) || error.fieldErrors.stage) {
        onResult({ kind: 'warning', text: APPROVAL_TEXTS.stageDecided });
        return onReload();
      }
      if (error.fieldErrors.comment) setCommentError(COMMENT_REQUIRED);
      setMessage({ kind: 'error', text: FAILED, details: error.globalErrors });
    },
  });

  const signatures = useSignatureSettings(true);
  /** Sends the decision, signed when credentials are given (the ticket rides on the call's header). */
  const send = (decision: StageDecision, credentials?: SignatureCredentials) => {
    const values = { decision, comment: comment.trim() };
    const key = attempts.keyFor(values);
    sent.current = { values, key };
    const variables = {
      id: request.id,
      body: { stage, decision, comment: values.comment, versionno: request.versionno, attemptKey: key },
    };
    if (!credentials) return decide.mutate(variables);
    return sendSigned(credentials, () => decide.mutateAsync(variables));
  };
  const rejectQuestion: ReactNode = (
    <Text size="sm">
      Rejecting {APPROVAL_TEXTS.stageOf(stage, total).toLowerCase()} rejects the request: the requester is told, and no
      later stage or review follows. This cannot be undone.
    </Text>
  );
  const askSignature = (decision: StageDecision, required: boolean) =>
    openSigningDialog({
      action: stageSignatureAction(decision),
      meanings: [stageSignatureMeaning(decision, stage)],
      required,
      ...(decision === 'REJECTED'
        ? {
            title: `Reject stage ${stage}?`,
            children: rejectQuestion,
            labels: { confirm: APPROVAL_TEXTS.rejectStage, cancel: 'Cancel' },
          }
        : {}),
      onSign: (credentials) => send(decision, credentials),
    });

  const approve = () => (signatures.enabled ? askSignature('APPROVED', false) : send('APPROVED'));

  const reject = () => {
    if (!comment.trim()) {
      setCommentError(COMMENT_REQUIRED);
      commentRef.current?.focus();
      return;
    }
    if (signatures.enabled) return askSignature('REJECTED', false);
    modals.openConfirmModal({
      title: `Reject stage ${stage}?`,
      children: rejectQuestion,
      labels: { confirm: APPROVAL_TEXTS.rejectStage, cancel: 'Cancel' },
      confirmProps: { color: 'red' },
      onConfirm: () => send('REJECTED'),
    });
  };

  return (
    <Paper withBorder p="md" component="section" aria-labelledby="stage-decision-heading">
      <Stack gap="sm">
        <Title order={2} id="stage-decision-heading">
          Your decision: {APPROVAL_TEXTS.stageOf(stage, total)}
          {group ? ` (${APPROVER_GROUP_LABELS[group]})` : ''}
        </Title>
        <MessageAlert message={message} onClose={() => setMessage(null)} />
        <CountedTextarea
          ref={commentRef}
          label="Comment"
          maxLength={APPROVAL_LIMITS.comment}
          value={comment}
          onChange={(e) => {
            setComment(e.currentTarget.value);
            setCommentError(null);
          }}
          error={commentError}
          placeholder="Required to reject the stage"
        />
        <Group>
          <Button
            onClick={approve}
            loading={decide.isPending && sent.current?.values.decision === 'APPROVED'}
            disabled={decide.isPending}
          >
            {APPROVAL_TEXTS.approveStage}
          </Button>
          <Button
            color="red"
            variant="light"
            onClick={reject}
            loading={decide.isPending && sent.current?.values.decision === 'REJECTED'}
            disabled={decide.isPending}
          >
            {APPROVAL_TEXTS.rejectStage}
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}
