import type { FormEvent } from 'react';

/** The summary a form announces when a submit finds fields to correct (the request forms' words). */
export const FIELDS_NEED_ATTENTION = 'Some fields need your attention. Correct them and submit again.';

/**
 * After a submit that found errors, moves focus to the form's first invalid field (WCAG 3.3.1: the error is
 * where focus is, so a screen reader reads it with the field's name). Call it from the submit handler with
 * the submit event; it waits one frame for the errors to be rendered (`aria-invalid`).
 */
export function focusFirstInvalid(event: FormEvent<HTMLFormElement> | undefined): void {
  const form = event?.currentTarget;
  if (!(form instanceof HTMLFormElement)) return;
  requestAnimationFrame(() => form.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus());
}
