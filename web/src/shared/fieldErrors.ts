import { translateFieldErrors, type FieldErrors } from '@portal/contract';

/**
 * Server field-error keys use brackets for indices (`accessControls[0].roleName`, 001 §5); the forms use
 * dotted paths (`accessControls.0.roleName`). Converts a server map into dotted keys.
 */
export function toFormPaths(fieldErrors: FieldErrors, rename: (key: string) => string = (k) => k): FieldErrors {
  const out: FieldErrors = {};
  for (const [key, messages] of Object.entries(fieldErrors)) {
    const path = rename(key.replace(/\[(\d+)\]/g, '.$1'));
    out[path] = [...(out[path] ?? []), ...messages];
  }
  return out;
}

/** Renders the messages of one field with its label (000 §5), or undefined when there are none. */
export function fieldErrorText(
  errors: FieldErrors,
  path: string | string[],
  label: string,
  plural = false,
): string | undefined {
  const keys = (Array.isArray(path) ? path : [path]).flatMap((p) => errors[p] ?? []);
  return keys.length ? translateFieldErrors(label, keys, plural) : undefined;
}
