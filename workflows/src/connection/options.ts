/**
 * How the API's client and the worker connect to Temporal (issue 24): plain TCP to the dev server, TLS with
 * the operating system's roots or a given CA (a self-hosted cluster), mutual TLS with a client certificate,
 * or an API key (Temporal Cloud). One module, so both processes read the same variables the same way.
 *
 * The names follow Temporal's own environment configuration (the CLI and SDKs' envconfig): `*_PATH` is a file,
 * `*_DATA` its content, here PEM text or the base64 of it (a PEM does not fit one line of an .env file).
 */
import fs from 'node:fs';
import { z } from 'zod';
import type { TLSConfig } from '@temporalio/client';

const optionalText = z
  .string()
  .trim()
  .optional()
  .transform((v) => v || undefined);

/** A file that must exist when set: the error names the variable at start-up, not at the first call. */
const readablePath = optionalText.refine((v) => v === undefined || isReadableFile(v), 'no readable file at this path');

/** PEM text, or base64 of PEM text. */
const pemData = optionalText.refine(
  (v) => v === undefined || decodePem(v) !== undefined,
  'must be PEM text (-----BEGIN ...) or its base64',
);

/** The Temporal connection variables, validated with every other setting of the process. */
export const TemporalConnectionEnvSchema = z.object({
  /** 'true' forces TLS, 'false' forbids it; unset or empty, TLS is on when any other TLS variable or an API key is set. */
  TEMPORAL_TLS: z
    .enum(['true', 'false', '1', '0', ''])
    .optional()
    .transform((v) => v || undefined),
  /** The CA that signed the server's certificate; unset, the operating system's roots (Temporal Cloud). */
  TEMPORAL_TLS_SERVER_CA_CERT_PATH: readablePath,
  TEMPORAL_TLS_SERVER_CA_CERT_DATA: pemData,
  /** The name the server's certificate must carry, when it differs from TEMPORAL_ADDRESS's host. */
  TEMPORAL_TLS_SERVER_NAME: optionalText,
  /** Mutual TLS: the client certificate (chain) and its private key, both or neither. */
  TEMPORAL_TLS_CLIENT_CERT_PATH: readablePath,
  TEMPORAL_TLS_CLIENT_CERT_DATA: pemData,
  TEMPORAL_TLS_CLIENT_KEY_PATH: readablePath,
  TEMPORAL_TLS_CLIENT_KEY_DATA: pemData,
  /** Temporal Cloud's API key (sent as `Authorization: Bearer`); implies TLS. */
  TEMPORAL_API_KEY: optionalText,
});
export type TemporalConnectionEnv = z.infer<typeof TemporalConnectionEnvSchema>;

/** What `Connection.connect` (client) and `NativeConnection.connect` (worker) both take. */
export interface TemporalConnectionOptions {
  address: string;
  tls?: TLSConfig;
  apiKey?: string;
}

function isReadableFile(file: string): boolean {
  try {
    fs.accessSync(file, fs.constants.R_OK);
    return fs.statSync(file).isFile();
  } catch {
    return false;
  }
}

/** PEM text as given, or decoded from base64; undefined when it is neither. */
function decodePem(value: string): Buffer | undefined {
  if (value.includes('-----BEGIN ')) return Buffer.from(value.replace(/\\n/g, '\n'));
  if (!/^[A-Za-z0-9+/=\s]+$/.test(value)) return undefined;
  const decoded = Buffer.from(value, 'base64');
  return decoded.toString('utf8').includes('-----BEGIN ') ? decoded : undefined;
}

/** The PEM of a path/data pair, or an issue naming the pair when both are set. */
function pemOf(
  env: TemporalConnectionEnv,
  name: 'SERVER_CA_CERT' | 'CLIENT_CERT' | 'CLIENT_KEY',
  issues: string[],
): Buffer | undefined {
  const file = env[`TEMPORAL_TLS_${name}_PATH`];
  const data = env[`TEMPORAL_TLS_${name}_DATA`];
  if (file && data) issues.push(`  TEMPORAL_TLS_${name}_DATA: set either it or TEMPORAL_TLS_${name}_PATH, not both`);
  if (file) return fs.readFileSync(file);
  return data ? decodePem(data) : undefined;
}

/**
 * Turns the validated variables into connection options for `address` (TEMPORAL_ADDRESS).
 * @throws Error naming the variables that do not fit together (a certificate without its key, TLS settings
 *   with TEMPORAL_TLS=false, a path and data both set), in the format of the processes' configuration errors.
 */
export function temporalConnectionOptions(address: string, env: TemporalConnectionEnv): TemporalConnectionOptions {
  const issues: string[] = [];
  const ca = pemOf(env, 'SERVER_CA_CERT', issues);
  const crt = pemOf(env, 'CLIENT_CERT', issues);
  const key = pemOf(env, 'CLIENT_KEY', issues);
  if (crt && !key) issues.push('  TEMPORAL_TLS_CLIENT_KEY_PATH: required with a client certificate (or _DATA)');
  if (key && !crt) issues.push('  TEMPORAL_TLS_CLIENT_CERT_PATH: required with a client key (or _DATA)');
  const wanted = Boolean(ca || crt || key || env.TEMPORAL_TLS_SERVER_NAME || env.TEMPORAL_API_KEY);
  const forced = env.TEMPORAL_TLS === undefined ? undefined : env.TEMPORAL_TLS === 'true' || env.TEMPORAL_TLS === '1';
  if (forced === false && wanted)
    issues.push('  TEMPORAL_TLS: is false, but TLS settings or TEMPORAL_API_KEY are set (Temporal Cloud needs TLS)');
  if (issues.length) throw new Error(`Invalid configuration:\n${issues.join('\n')}`);
  if (!(forced ?? wanted)) return { address };
  const tls: TLSConfig = {
    ...(ca && { serverRootCACertificate: ca }),
    ...(env.TEMPORAL_TLS_SERVER_NAME && { serverNameOverride: env.TEMPORAL_TLS_SERVER_NAME }),
    ...(crt && key && { clientCertPair: { crt, key } }),
  };
  return { address, tls, ...(env.TEMPORAL_API_KEY && { apiKey: env.TEMPORAL_API_KEY }) };
}

/**
 * Parses the Temporal connection variables of `env` and turns them into options for `address`.
 * @throws Error naming every bad variable.
 */
export function loadTemporalConnection(
  address: string,
  env: NodeJS.ProcessEnv = process.env,
): TemporalConnectionOptions {
  const parsed = TemporalConnectionEnvSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new Error(`Invalid configuration:\n${lines.join('\n')}`);
  }
  return temporalConnectionOptions(address, parsed.data);
}

/**
 * The error of a failed connect, saying where and how the process tried (TLS or not, which CA, whether a
 * client certificate and an API key were offered), so a TLS mismatch reads as one; the original is its cause.
 */
export function temporalConnectError(options: TemporalConnectionOptions, err: unknown): Error {
  const { tls } = options;
  const how = tls
    ? [
        'over TLS',
        tls.serverRootCACertificate ? 'trusting the configured server CA' : "trusting the system's roots",
        tls.clientCertPair ? 'presenting the client certificate' : 'with no client certificate',
        ...(options.apiKey ? ['with the API key'] : []),
      ].join(', ')
    : 'without TLS (set TEMPORAL_TLS_* for a server that requires it)';
  const message = err instanceof Error ? err.message : String(err);
  return new Error(`Temporal at ${options.address} could not be reached ${how}: ${message}`, { cause: err });
}
