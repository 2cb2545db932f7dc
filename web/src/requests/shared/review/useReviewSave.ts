import type { UseFormReturnType } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { CONSTANTS, GLOBAL_ERRORS, MESSAGES, translateFieldErrors } from '@portal/contract';
import type { UseMutationResult } from '@tanstack/react-query';
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { useNavigate } from 'react-router-dom';
import { ApiError } from '../../../lib/apiClient';
import { isSignatureRequired, isSigningError, sendSigned, type SignatureCredentials } from '../../../lib/signature';
import { paths } from '../../../lib/paths';
import type { MutationConfig } from '../../../lib/reactQuery';
import type { PageMessage } from '../../../shared/ErrorAlert';
import { useUnsavedChanges } from '../../../shared/UnsavedChanges';
import type { ReviewOutcome } from '../api/reviewOutcome';
import { useAttemptKeys } from './attemptKey';

const STALE_TEXT =
  'Someone else changed this request after you opened it, so your changes were not saved. Reload the request to see the latest version; what you typed is kept so you can save it again.';

/** Shown after 'Reload request' on the fresh version, with what the reviewer had typed put back. */
export const RELOADED_TEXT =
  'The request was reloaded with the latest changes. Your comments and ticket number were kept: check them and the status, then save again.';

/** A kind's review save endpoint hook (e.g. `useReviewAccessChangeRequest`). */
export type UseReviewEndpoint<B> = (options: {
  mutationConfig?: MutationConfig<(body: B) => Promise<ReviewOutcome<unknown>>>;
}) => UseMutationResult<ReviewOutcome<unknown>, Error, B>;

export interface ReviewSaveOptions<V, B> {
  form: UseFormReturnType<V>;
  /** Whether the form may change at all (permission, not locked). */
  editable: boolean;
  useEndpoint: UseReviewEndpoint<B>;
  /** The request body from the values and this attempt's key. */
  toBody: (values: V, attemptKey: string) => B;
  /** True when saving these values resolves the request (the form locks afterwards). */
  resolves: (values: V) => boolean;
  /**
   * The kind's texts: success, the page-level failure text (001 §8) and, where the kind's screen words it
   * otherwise, the Unsaved Changes dialog's sentence.
   */
  texts: { saved: string; failed: string; unsaved?: string };
  /** Form fields by the server's field key (prefix removed) and their labels, for 422 fieldErrors. */
  labels: Record<string, string>;
  /** The prefix of the server's field keys (e.g. 'userAccessModificationRequest.'). */
  fieldPrefix: string;
  /** The fields the reviewer typed that survive 'Reload request' after a stale save (comments, ticket). */
  keepOnReload?: readonly (keyof V & string)[];
  /** Loads the request again, handing over the kept values for the fresh form (`carried`). */
  onReload?: (kept: Partial<V>) => void;
  /** Values kept from before a reload: put back over the fresh request's, so they count as unsaved edits. */
  carried?: Partial<V>;
  /**
   * The screen's own placing of 422 field errors (e.g. `userAccesses[i]` under role blocks): form errors by
   * path and the texts it could not place. Without it, `labels` and `fieldPrefix` place them.
   */
  mapErrors?: (fieldErrors: Record<string, string[]>) => { errors: Record<string, string>; unmatched: string[] };
  /**
   * The API refused an unsigned save with SIGNATURE_REQUIRED (signatures are on): the screen asks for the
   * signature and sends the same values again with `saveSigned`.
   */
  onSignatureRequired?: (values: V) => void;
}

/**
 * The save side of every review screen (001 §2.8, §4; REQUEST-LIFECYCLE rule 6). It sends the body with an
 * attempt key (a new one per attempt, the same one when the same values are retried after a 202 or a lost
 * answer) and shows what came back: saved (one alert with the spec's text, 001 §2.8: a notification that
 * stays visible on the queue it returns to after the spec's delay; the form locks when the status resolved the
 * request), 'no changes' (304), still processing (202, values kept, Save stays), busy (409
 * REVIEW_IN_PROGRESS, values kept), stale (422 STALE_VERSION, with 'Reload request', which keeps the
 * `keepOnReload` fields for the fresh version), field errors beside their fields, anything else under the
 * kind's failure text.
 */
export function useReviewSave<V, B>(options: ReviewSaveOptions<V, B>) {
  const { form, texts } = options;
  const navigate = useNavigate();
  const [message, setMessage] = useState<PageMessage | null>(null);
  const [stale, setStale] = useState(false);
  const [savedResolved, setSavedResolved] = useState(false);
  const attempts = useAttemptKeys<V>();
  const guard = useUnsavedChanges(options.editable && !savedResolved && form.isDirty(), texts.unsaved);
  const redirectTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(redirectTimer.current), []);
  const sent = useRef<{ values: V; key: string } | null>(null);

  // After 'Reload request': the fresh version with what the reviewer typed put back (unsaved, so guarded).
  const { carried } = options;
  useEffect(() => {
    if (!carried || Object.keys(carried).length === 0) return;
    form.setValues(carried);
    setMessage({ kind: 'info', text: RELOADED_TEXT });
    // Once, when the fresh form mounts.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  const fieldErrors = (error: ApiError) => {
    if (options.mapErrors) {
      const mapped = options.mapErrors(error.fieldErrors);
      form.setErrors(mapped.errors);
      return mapped.unmatched;
    }
    const errors: Record<string, string> = {};
    const details: string[] = [];
    for (const [key, reasons] of Object.entries(error.fieldErrors)) {
      const field = key.startsWith(options.fieldPrefix) ? key.slice(options.fieldPrefix.length) : key;
      const label = options.labels[field];
      if (label) errors[field] = translateFieldErrors(label, reasons);
      else details.push(translateFieldErrors(key, reasons));
    }
    form.setErrors(errors);
    return details;
  };

  const mutation = options.useEndpoint({
    mutationConfig: {
      onMutate: () => {
        setMessage(null);
        setStale(false);
      },
      onSuccess: (outcome) => {
        const attempt = sent.current;
        if (outcome.kind === 'processing') {
          if (attempt) attempts.keepOpen(attempt.values, attempt.key);
          setMessage({ kind: 'info', text: MESSAGES.access.reviewProcessing });
          return;
        }
        attempts.close();
        if (outcome.kind === 'unchanged') {
          setMessage({ kind: 'info', text: MESSAGES.access.noChanges });
          return;
        }
        guard.release();
        if (attempt && options.resolves(attempt.values)) setSavedResolved(true);
        notifications.show({ color: 'green', title: 'Saved', message: texts.saved });
        redirectTimer.current = setTimeout(
          () => void navigate(paths.app.userRequests.href),
          CONSTANTS.redirectAfterSaveMs,
        );
      },
      onError: (error) => {
        const attempt = sent.current;
        if (!(error instanceof ApiError)) {
          attempts.close();
          setMessage({ kind: 'error', text: texts.failed });
          return;
        }
        if (error.status === 0) {
          // No answer: the save may have been taken, so the same values retry under the same key.
          if (attempt) attempts.keepOpen(attempt.values, attempt.key);
          setMessage({ kind: 'error', text: texts.failed, details: [error.message] });
          return;
        }
        // The signing dialog shows its own refusals; the page's message and values stay as they are.
        if (isSigningError(error)) return;
        if (isSignatureRequired(error) && attempt && options.onSignatureRequired) {
          options.onSignatureRequired(attempt.values);
          return;
        }
        attempts.close();
        const details = fieldErrors(error);
        if (error.hasGlobalError(GLOBAL_ERRORS.reviewBusy)) {
          setMessage({ kind: 'warning', text: MESSAGES.access.reviewBusy });
          return;
        }
        if (error.hasGlobalError(GLOBAL_ERRORS.staleVersion)) {
          setStale(true);
          setMessage({ kind: 'error', text: STALE_TEXT });
          return;
        }
        setMessage({ kind: 'error', text: texts.failed, details: [...details, ...error.globalErrors] });
      },
    },
  });

  /** Sends the values (after any confirmation the screen asks for). */
  const save = (values: V) => {
    const key = attempts.keyFor(values);
    sent.current = { values, key };
    mutation.mutate(options.toBody(values, key));
  };

  /**
   * Sends the values signed (lib/signature `sendSigned`): the ticket is asked for with the very body sent.
   * Rejects as the save does (the signing dialog keeps its own refusals, the page shows the others).
   */
  const saveSigned = (values: V, credentials: SignatureCredentials) => {
    const key = attempts.keyFor(values);
    sent.current = { values, key };
    return sendSigned(credentials, () => mutation.mutateAsync(options.toBody(values, key)));
  };

  /** 'Reload request': the kept fields go to the fresh form. */
  const reload = () => {
    const kept: Partial<V> = {};
    for (const key of options.keepOnReload ?? []) kept[key] = form.values[key];
    options.onReload?.(kept);
  };

  return {
    save,
    saveSigned,
    reload,
    saving: mutation.isPending,
    message,
    clearMessage: () => setMessage(null),
    stale,
    /** The request was resolved by this screen's save: everything turns read-only. */
    savedResolved,
    guardDialog: guard.dialog as ReactNode,
    /** Lets the screen leave without the unsaved-changes question (another action resolved the request). */
    releaseGuard: guard.release,
  };
}
