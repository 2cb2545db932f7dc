import type { UseFormReturnType } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import {
  CONSTANTS,
  GLOBAL_ERRORS,
  MESSAGES,
  REGISTRATION_ERRORS,
  REGISTRATION_MESSAGES,
  type Registration,
  type SignatureAction,
} from '@portal/contract';
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { useNavigate } from 'react-router-dom';
import { ApiError } from '../../../lib/apiClient';
import { paths } from '../../../lib/paths';
import type { PageMessage } from '../../../shared/ErrorAlert';
import { showErrorToast } from '../../../shared/errorToast';
import { isSignatureRequired, isSigningError, sendSigned, type SignatureCredentials } from '../../../lib/signature';
import { openSigningDialog } from '../../../shared/signature/openSigningDialog';
import { meaningsFor, useSignatureSettings } from '../../../shared/signature/useSignatureSettings';
import { useAttemptKeys } from '../../shared/review/attemptKey';
import { useDeleteRegistration } from '../api/deleteRegistration';
import { useRegistrationAction } from '../api/registrationAction';
import {
  isInternalDomainWarning,
  pendingUserErrorsToForm,
  toActionBody,
  validateApproval,
  type PendingUserValues,
} from './pendingUserForm';

type Kind = 'approve' | 'deny';
interface Attempt {
  kind: Kind;
  values: PendingUserValues;
  ignoreWarnings: boolean;
}

const TEXTS = {
  approve: {
    done: REGISTRATION_MESSAGES.userCreated,
    listMessage: REGISTRATION_MESSAGES.listUserCreated,
    failed: REGISTRATION_MESSAGES.approveIssue,
    failedTitle: REGISTRATION_MESSAGES.approveIssueTitle,
  },
  deny: {
    done: REGISTRATION_MESSAGES.rejected,
    listMessage: REGISTRATION_MESSAGES.listUserRejected,
    failed: REGISTRATION_MESSAGES.rejectIssue,
    failedTitle: REGISTRATION_MESSAGES.rejectIssueTitle,
  },
} as const;

/**
 * The actions of Review Pending User besides the save (001 §2.4, §4, §8): 'Create User' (approve), reject and
 * delete. Approve and reject carry an attempt key like every review save (a 202 or a lost answer keeps it for
 * the retry, 409 says another action is running), and so does delete (with the version shown); approve first checks that a portal role is chosen, and the
 * internal-domain warning opens the 'Create User Anyway' confirmation. Success goes to the User Requests page
 * with its message ('User created', 'User Rejected'; after a delete, 'User Registration Deleted' after 750 ms).
 */
export function useRegistrationActions({
  registration,
  form,
  releaseGuard,
  editable = false,
}: {
  registration: Registration;
  form: UseFormReturnType<PendingUserValues>;
  /** Lets the page leave without the unsaved-changes question once the registration is resolved. */
  releaseGuard: () => void;
  /** The viewer may decide (the signature settings are read only then). */
  editable?: boolean;
}) {
  const signatures = useSignatureSettings(editable);
  const navigate = useNavigate();
  // Notifications name the person; the list page shows the spec's message ('User created', ...) itself.
  const person = `${registration.firstName} ${registration.lastName}`;
  const attempts = useAttemptKeys<Attempt>();
  const sent = useRef<{ attempt: Attempt; key: string } | null>(null);
  const [message, setMessage] = useState<PageMessage | null>(null);
  const [stale, setStale] = useState(false);
  const [warningOpen, setWarningOpen] = useState(false);
  const [finished, setFinished] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);

  const finish = (listMessage: string, delayMs = 0) => {
    releaseGuard();
    setFinished(true);
    const go = () => void navigate(paths.app.userRequests.withMessage(listMessage));
    if (delayMs) timer.current = setTimeout(go, delayMs);
    else go();
  };

  const action = useRegistrationAction({
    mutationConfig: {
      onMutate: () => {
        setMessage(null);
        setStale(false);
      },
      onSuccess: (outcome) => {
        const attempt = sent.current;
        if (!attempt) return;
        const texts = TEXTS[attempt.attempt.kind];
        if (outcome.kind === 'processing') {
          attempts.keepOpen(attempt.attempt, attempt.key);
          setMessage({ kind: 'info', text: MESSAGES.access.reviewProcessing });
          return;
        }
        attempts.close();
        notifications.show({ color: 'green', title: texts.done, message: person });
        finish(texts.listMessage);
      },
      onError: (error) => {
        const attempt = sent.current;
        const kind = attempt?.attempt.kind ?? 'approve';
        const texts = TEXTS[kind];
        // The signing dialog shows its own refusals; an unsigned decision the API wants signed asks for it.
        if (isSigningError(error)) return;
        if (isSignatureRequired(error) && attempt) {
          attempts.close();
          askSignature(attempt.attempt.kind, attempt.attempt.ignoreWarnings, true);
          return;
        }
        if (error instanceof ApiError && error.status === 0 && attempt) {
          // No answer: the action may have been taken, so the same values retry under the same key.
          attempts.keepOpen(attempt.attempt, attempt.key);
          setMessage({ kind: 'error', text: texts.failed, details: [error.message] });
          return;
        }
        attempts.close();
        if (!(error instanceof ApiError)) {
          setMessage({ kind: 'error', text: texts.failed });
          return;
        }
        if (error.hasGlobalError(GLOBAL_ERRORS.reviewBusy)) {
          setMessage({ kind: 'warning', text: MESSAGES.access.reviewBusy });
          return;
        }
        if (kind === 'approve' && isInternalDomainWarning(error.fieldErrors, error.globalErrors)) {
          setWarningOpen(true);
          return;
        }
        showErrorToast(texts.failedTitle, texts.failed);
        if (error.hasGlobalError(GLOBAL_ERRORS.staleVersion)) setStale(true);
        if (kind === 'approve' && error.hasGlobalError(REGISTRATION_ERRORS.preexistingAccountRequired)) {
          setMessage({ kind: 'error', text: REGISTRATION_MESSAGES.preexistingAccountRequired });
          return;
        }
        const { errors, unmatched } = pendingUserErrorsToForm(error.fieldErrors);
        form.setErrors(errors);
        const hasFieldErrors = Object.keys(error.fieldErrors).length > 0;
        setMessage({
          kind: 'error',
          text:
            hasFieldErrors && kind === 'approve'
              ? `${texts.failed} ${REGISTRATION_MESSAGES.fieldsHaveErrors}`
              : texts.failed,
          details: [...unmatched, ...error.globalErrors.filter((g) => g !== GLOBAL_ERRORS.staleVersion)],
        });
      },
    },
  });

  /** Approval first needs a portal role (shown under the roles and above the form otherwise). */
  const approvable = () => {
    const errors = validateApproval(form.getValues());
    if (!Object.keys(errors).length) return true;
    form.setErrors(errors);
    setMessage({ kind: 'error', text: REGISTRATION_MESSAGES.portalRoleRequired });
    return false;
  };

  /** A registration's approval is signed REQUEST_APPROVAL, its denial REQUEST_REJECTION. */
  const signatureAction = (kind: Kind): SignatureAction =>
    kind === 'approve' ? 'REQUEST_APPROVAL' : 'REQUEST_REJECTION';
  const askSignature = (kind: Kind, ignoreWarnings: boolean, refused: boolean, question?: ReactNode) =>
    openSigningDialog({
      title: kind === 'deny' ? 'Reject Registration?' : undefined,
      action: signatureAction(kind),
      meanings: meaningsFor(signatures, signatureAction(kind)),
      labels: kind === 'deny' ? { confirm: 'Reject', cancel: 'Cancel' } : undefined,
      required: refused,
      children: question,
      onSign: (credentials) => run(kind, ignoreWarnings, credentials),
    });

  const run = (kind: Kind, ignoreWarnings = false, credentials?: SignatureCredentials) => {
    const values = form.getValues();
    if (kind === 'approve' && !approvable()) return undefined;
    const attempt: Attempt = { kind, values, ignoreWarnings };
    const key = attempts.keyFor(attempt);
    sent.current = { attempt, key };
    const variables = {
      action: kind,
      body: toActionBody(registration, values, key),
      ignoreValidationWarnings: ignoreWarnings,
    };
    if (credentials) return sendSigned(credentials, () => action.mutateAsync(variables));
    action.mutate(variables);
    return undefined;
  };

  // A delete is one attempt per version shown: retried under the same key after a 202 or a lost answer.
  const deletes = useAttemptKeys<number>();
  const deleteSent = useRef<{ versionno: number; key: string } | null>(null);
  const remove = useDeleteRegistration({
    mutationConfig: {
      onMutate: () => setMessage(null),
      onSuccess: (outcome) => {
        if (outcome.kind === 'processing' && deleteSent.current) {
          deletes.keepOpen(deleteSent.current.versionno, deleteSent.current.key);
          setMessage({ kind: 'info', text: MESSAGES.access.reviewProcessing });
          return;
        }
        deletes.close();
        setMessage({ kind: 'success', text: REGISTRATION_MESSAGES.deleted });
        notifications.show({
          color: 'green',
          title: REGISTRATION_MESSAGES.deleted,
          message: person,
        });
        finish(REGISTRATION_MESSAGES.listDeleted, CONSTANTS.redirectAfterSaveMs);
      },
      onError: (error) => {
        const answered = error instanceof ApiError && error.status !== 0;
        if (answered || !deleteSent.current) deletes.close();
        else deletes.keepOpen(deleteSent.current.versionno, deleteSent.current.key);
        setMessage({
          kind: 'error',
          text: REGISTRATION_MESSAGES.deleteFailed,
          details: [answered ? error.message : REGISTRATION_MESSAGES.deleteIssue],
        });
      },
    },
  });

  return {
    approve: () => {
      if (!signatures.enabled) return void run('approve');
      if (approvable()) askSignature('approve', false, false);
    },
    /** 'Create User Anyway': the approval again with ignoreValidationWarnings=true. */
    approveAnyway: () => {
      setWarningOpen(false);
      if (signatures.enabled) askSignature('approve', true, false);
      else run('approve', true);
    },
    deny: () => void run('deny'),
    /** Signatures are on: 'Reject' asks its question with the signing fields instead of the plain confirmation. */
    signsDecisions: signatures.enabled,
    /** The rejection's question with the signing fields (signatures on). */
    denySigned: (question: ReactNode) => askSignature('deny', false, false, question),
    remove: () => {
      const versionno = registration.versionno;
      const key = deletes.keyFor(versionno);
      deleteSent.current = { versionno, key };
      remove.mutate({ id: registration.id, versionno, attemptKey: key });
    },
    busy: action.isPending || remove.isPending,
    message,
    clearMessage: () => setMessage(null),
    stale,
    warningOpen,
    closeWarning: () => setWarningOpen(false),
    /** Approved, rejected or deleted here: everything turns read-only while the page leaves. */
    finished,
  };
}
