import { z } from 'zod';

/**
 * The spec's error body (000 §7, 001 §5): a 422 carries `fieldErrors` keyed by the spec's field names
 * (each a list of reason keys or sentences) and `globalErrors` (codes such as REQUEST_IN_PROGRESS or
 * sentences). Other failures carry a `message`.
 */
export const ErrorBodySchema = z.object({
  fieldErrors: z.record(z.string(), z.array(z.string())).default({}),
  globalErrors: z.array(z.string()).default([]),
  message: z.string().optional(),
});
export type ErrorBody = z.infer<typeof ErrorBodySchema>;
export type FieldErrors = Record<string, string[]>;

/** Global error codes the spec names. */
export const GLOBAL_ERRORS = {
  requestInProgress: 'REQUEST_IN_PROGRESS',
  staleVersion: 'STALE_VERSION',
  /** Another reviewer's save of the same request is running (409): retry shortly, nothing is stale. */
  reviewBusy: 'REVIEW_IN_PROGRESS',
} as const;

/**
 * Maps zod issues to the spec's fieldErrors: the path joined with dots and indices in brackets
 * (`accessControls[0].roleName`), the message a reason key (`required`, `size`, `validEmail`,
 * `invalid`, `encoding:U+0000:3`) unless a refinement gave a sentence of its own. Strict types (issue 13): a
 * missing or null field is `required`, a value of the wrong type `invalid`, a number out of range `invalid`.
 */
export function zodToFieldErrors(error: z.ZodError): FieldErrors {
  const out: FieldErrors = {};
  for (const issue of error.issues) {
    const key =
      issue.path.map((p, i) => (typeof p === 'number' ? `[${p}]` : i === 0 ? String(p) : `.${String(p)}`)).join('') ||
      '_';
    const list = (out[key] ??= []);
    const reason = reasonFor(issue);
    if (!list.includes(reason)) list.push(reason);
  }
  return out;
}

function reasonFor(issue: z.core.$ZodIssue): string {
  switch (issue.code) {
    case 'invalid_type':
      // zod leaves `input` out of issues unless asked (reportInput); its message names what it received.
      return 'input' in issue
        ? issue.input === undefined || issue.input === null
          ? 'required'
          : 'invalid'
        : /received (undefined|null)$/.test(issue.message)
          ? 'required'
          : 'invalid';
    // A number out of its range is `invalid` (0 or a negative id is not a missing one); a string or list
    // too short is empty, which the screens show as `required`, and one too long is `size`.
    case 'too_big':
      return issue.origin === 'number' || issue.origin === 'bigint' ? 'invalid' : 'size';
    case 'too_small':
      return issue.origin === 'number' || issue.origin === 'bigint' ? 'invalid' : 'required';
    case 'invalid_format':
      return issue.format === 'email' ? 'validEmail' : 'invalid';
    case 'custom':
      return issue.message;
    default:
      return 'invalid';
  }
}
