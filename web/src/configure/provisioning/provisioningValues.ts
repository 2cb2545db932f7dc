import {
  PROVISIONING_LIMITS,
  ProvisioningBodySchema,
  translateFieldErrors,
  zodToFieldErrors,
  type ProvisioningAccessAs,
  type ProvisioningBody,
  type ProvisioningConnection,
} from '@portal/contract';
import type { FieldLabels } from '../errors';

/**
 * The provisioning section's form (issue 41; Configure → Systems): its values, the PUT body they make, the
 * labels the 422 field errors are shown under, and the browser's check before sending.
 */

export interface ProvisioningValues {
  baseUrl: string;
  /** A new bearer token; blank keeps the stored one. Never filled from the server. */
  token: string;
  enabled: boolean;
  accessAs: ProvisioningAccessAs;
  deleteOnRemoval: boolean;
  /** NumberInput's value: a number, or '' while empty. */
  retryDays: number | string;
  reconcileEveryMinutes: number | string;
}

/** The fields' labels, used by the form and by its error texts (001 §5 '{field label} {reason}'). */
export const PROVISIONING_LABELS = {
  baseUrl: 'SCIM base URL',
  token: 'Bearer token',
  enabled: 'Provisioning on',
  accessAs: 'Study access sent as',
  deleteOnRemoval: 'Delete the account on removal',
  retryDays: 'Retry a failing target for (days)',
  reconcileEveryMinutes: 'Reconcile every (minutes)',
} as const;

export const PROVISIONING_FIELD_LABELS: FieldLabels = Object.fromEntries(
  Object.entries(PROVISIONING_LABELS).map(([key, label]) => [key, { label }]),
);

/** The form's values for `connection`, or the blank set-up form with the contract's defaults. */
export function provisioningValues(connection: ProvisioningConnection | null): ProvisioningValues {
  return {
    baseUrl: connection?.baseUrl ?? '',
    token: '',
    enabled: connection?.enabled ?? true,
    accessAs: connection?.accessAs ?? 'EXTENSION',
    deleteOnRemoval: connection?.deleteOnRemoval ?? false,
    retryDays: connection?.retryDays ?? 7,
    reconcileEveryMinutes: connection?.reconcileEveryMinutes ?? 1440,
  };
}

/** NumberInput answers '' while empty: sent as NaN, so the schema calls it invalid rather than defaulting it. */
const numberOf = (v: number | string): number => (typeof v === 'number' ? v : v.trim() ? Number(v) : Number.NaN);

/** The PUT body of the values: a blank token is null (keep the stored one). */
export function provisioningBody(v: ProvisioningValues): ProvisioningBody {
  return {
    baseUrl: v.baseUrl.trim(),
    token: v.token.trim() || null,
    enabled: v.enabled,
    accessAs: v.accessAs,
    deleteOnRemoval: v.deleteOnRemoval,
    retryDays: numberOf(v.retryDays),
    reconcileEveryMinutes: numberOf(v.reconcileEveryMinutes),
  };
}

/** The range texts of the two numbers: clearer than 'is too long' for a number out of range. */
const RANGES = {
  retryDays: PROVISIONING_LIMITS.retryDays,
  reconcileEveryMinutes: PROVISIONING_LIMITS.reconcileEveryMinutes,
} as const;

/**
 * The browser's check before sending: the contract's own schema (https or loopback http, required URL, token
 * size), so both sides read the same; the numbers say their range.
 */
export function validateProvisioning(values: ProvisioningValues): Record<string, string> {
  const errors: Record<string, string> = {};
  const parsed = ProvisioningBodySchema.safeParse(provisioningBody(values));
  if (!parsed.success) {
    for (const [key, reasons] of Object.entries(zodToFieldErrors(parsed.error))) {
      if (key in RANGES) {
        const { min, max } = RANGES[key as keyof typeof RANGES];
        errors[key] = `${PROVISIONING_LABELS[key as keyof typeof RANGES]} must be a whole number from ${min} to ${max}`;
      } else if (key in PROVISIONING_LABELS) {
        errors[key] = translateFieldErrors(PROVISIONING_LABELS[key as keyof typeof PROVISIONING_LABELS], reasons);
      }
    }
  }
  return errors;
}

/** The settings the form edits, as one key: a save that changed them starts a fresh form, a test does not. */
export const settingsKey = (c: ProvisioningConnection | null): string =>
  c
    ? JSON.stringify([
        c.baseUrl,
        c.hasToken,
        c.enabled,
        c.accessAs,
        c.deleteOnRemoval,
        c.retryDays,
        c.reconcileEveryMinutes,
      ])
    : 'new';
