import { Select } from '@mantine/core';
import type { UseFormReturnType } from '@mantine/form';
import { ReviewerFields } from './ReviewerFields';
import { STATUS_REVIEW_LABELS, type StatusReviewValues } from './useStatusReviewForm';

/**
 * The closing fields of a status-driven review form (001 §2.8, §2.10, §4): Request Status (the options of
 * `useStatusReviewForm`), Reviewer Comments and External Ticket # with their counters; all filled and
 * read-only when the form is.
 */
export function StatusReviewFields<V extends StatusReviewValues>({
  form,
  statusOptions,
  readOnly,
}: {
  form: UseFormReturnType<V>;
  statusOptions: { value: string; label: string }[];
  readOnly: boolean;
}) {
  return (
    <>
      <Select
        label={STATUS_REVIEW_LABELS.requestStatus}
        data={statusOptions}
        allowDeselect={false}
        readOnly={readOnly}
        variant={readOnly ? 'filled' : 'default'}
        maw={320}
        {...form.getInputProps('requestStatus')}
      />
      <ReviewerFields form={form} labels={STATUS_REVIEW_LABELS} readOnly={readOnly} />
    </>
  );
}
