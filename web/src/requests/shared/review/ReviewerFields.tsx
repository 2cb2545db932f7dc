import type { UseFormReturnType } from '@mantine/form';
import { FIELD_LIMITS } from '@portal/contract';
import { CountedTextarea, CountedTextInput } from '../../../shared/CountedText';

/** The form values every review screen carries for the reviewer (001 §2.4, §2.8, §2.10). */
export interface ReviewerValues {
  reviewerComments: string;
  sysaidTicket: string;
}

/**
 * Reviewer Comments and the external ticket number of every review form, with their 001 §5 limits and counters;
 * `labels` are the screen's own words for the two fields.
 */
export function ReviewerFields<V extends ReviewerValues>({
  form,
  labels,
  readOnly,
}: {
  form: UseFormReturnType<V>;
  labels: { reviewerComments: string; sysaidTicket: string };
  readOnly: boolean;
}) {
  const variant = readOnly ? 'filled' : 'default';
  return (
    <>
      <CountedTextarea
        label={`${labels.reviewerComments} (optional)`}
        maxLength={FIELD_LIMITS.reviewerComments}
        readOnly={readOnly}
        variant={variant}
        {...form.getInputProps('reviewerComments')}
        value={form.values.reviewerComments}
      />
      <CountedTextInput
        label={`${labels.sysaidTicket} (optional)`}
        maxLength={FIELD_LIMITS.sysaidTicket}
        readOnly={readOnly}
        variant={variant}
        maw={320}
        {...form.getInputProps('sysaidTicket')}
        value={form.values.sysaidTicket}
      />
    </>
  );
}
