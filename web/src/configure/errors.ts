import { translateFieldErrors } from '@portal/contract';
import { ApiError } from '../lib/apiClient';
import type { PageMessage } from '../shared/ErrorAlert';

/**
 * A server field's label as the spec's messages name it; plural labels read 'are' (000 §5). `field` names the
 * form field that shows it when the form calls it differently (the portal role's one `permission`).
 */
export type FieldLabels = Record<string, { label: string; plural?: boolean; field?: string }>;

export interface Failure {
  /** Texts to show next to the form's fields, keyed by form field. */
  fieldErrors: Record<string, string>;
  /** The page-level message: the spec's failure text, with whatever could not be shown by a field. */
  message: PageMessage;
}

/**
 * Turns a failed configuration call into what the form shows (001 §5, §8): 422 fieldErrors next to their
 * fields (joined with '; '), everything else (global errors, unknown keys, 403, network) under `text`.
 */
export function describeFailure(error: unknown, text: string, labels: FieldLabels): Failure {
  const fieldErrors: Record<string, string> = {};
  const details: string[] = [];
  if (error instanceof ApiError) {
    for (const [key, reasons] of Object.entries(error.fieldErrors)) {
      const field = labels[key];
      if (field) fieldErrors[field.field ?? key] = translateFieldErrors(field.label, reasons, field.plural);
      else details.push(translateFieldErrors(key, reasons));
    }
    details.push(...error.globalErrors);
    if (error.status !== 422 && error.message) details.push(error.message);
  } else if (error instanceof Error && error.message) {
    details.push(error.message);
  }
  return { fieldErrors, message: { kind: 'error', text, details } };
}
