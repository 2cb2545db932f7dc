import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadTemporalConnection } from './options';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'temporal-options-'));
const PEM = '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n';
const pemFile = path.join(dir, 'a.pem');
fs.writeFileSync(pemFile, PEM);
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('loadTemporalConnection', () => {
  it('is plain TCP without settings, and TLS as soon as one is set', () => {
    expect(loadTemporalConnection('x:1', {})).toEqual({ address: 'x:1' });
    expect(loadTemporalConnection('x:1', { TEMPORAL_TLS: '' })).toEqual({ address: 'x:1' });
    expect(loadTemporalConnection('x:1', { TEMPORAL_TLS: 'true' })).toEqual({ address: 'x:1', tls: {} });
    expect(loadTemporalConnection('x:1', { TEMPORAL_API_KEY: 'k' })).toEqual({ address: 'x:1', tls: {}, apiKey: 'k' });
    expect(loadTemporalConnection('x:1', { TEMPORAL_TLS_SERVER_NAME: 'temporal.test' })).toEqual({
      address: 'x:1',
      tls: { serverNameOverride: 'temporal.test' },
    });
  });

  it('reads PEM from a file, from PEM text or from its base64', () => {
    const fromFile = loadTemporalConnection('x:1', { TEMPORAL_TLS_SERVER_CA_CERT_PATH: pemFile });
    const fromText = loadTemporalConnection('x:1', { TEMPORAL_TLS_SERVER_CA_CERT_DATA: PEM });
    const fromBase64 = loadTemporalConnection('x:1', {
      TEMPORAL_TLS_SERVER_CA_CERT_DATA: Buffer.from(PEM).toString('base64'),
    });
    for (const options of [fromFile, fromText, fromBase64]) {
      expect(Buffer.from(options.tls!.serverRootCACertificate!).toString().trim()).toBe(PEM.trim());
    }
    const mutual = loadTemporalConnection('x:1', {
      TEMPORAL_TLS_CLIENT_CERT_PATH: pemFile,
      TEMPORAL_TLS_CLIENT_KEY_DATA: PEM,
    });
    expect(Object.keys(mutual.tls!.clientCertPair!)).toEqual(['crt', 'key']);
  });

  it('names the variable that is wrong or does not fit', () => {
    const cases: [Record<string, string>, RegExp][] = [
      [
        { TEMPORAL_TLS_CLIENT_CERT_PATH: path.join(dir, 'missing.pem') },
        /TEMPORAL_TLS_CLIENT_CERT_PATH: no readable file/,
      ],
      [{ TEMPORAL_TLS_CLIENT_CERT_PATH: pemFile }, /TEMPORAL_TLS_CLIENT_KEY_PATH: required with a client certificate/],
      [{ TEMPORAL_TLS_CLIENT_KEY_DATA: PEM }, /TEMPORAL_TLS_CLIENT_CERT_PATH: required with a client key/],
      [{ TEMPORAL_TLS_SERVER_CA_CERT_DATA: 'not a pem' }, /TEMPORAL_TLS_SERVER_CA_CERT_DATA: must be PEM/],
      [{ TEMPORAL_TLS_SERVER_CA_CERT_PATH: pemFile, TEMPORAL_TLS_SERVER_CA_CERT_DATA: PEM }, /set either it or/],
      [{ TEMPORAL_TLS: 'false', TEMPORAL_API_KEY: 'k' }, /TEMPORAL_TLS: is false/],
      [{ TEMPORAL_TLS: 'yes' }, /TEMPORAL_TLS: /],
    ];
    for (const [env, message] of cases) expect(() => loadTemporalConnection('x:1', env)).toThrow(message);
  });
});
