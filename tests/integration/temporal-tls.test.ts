/**
 * Secure Temporal connections (issue 24): the API's client options and the worker process, configured only
 * through the TEMPORAL_TLS_* and TEMPORAL_API_KEY variables, reach the dev server through a TLS terminator
 * (tests/support/tls-terminator.ts): TLS with the server's CA from a file, mutual TLS with the CA, the client
 * certificate and its key given as base64 variables and the server name overridden, an API key over TLS; and
 * a missing or wrong CA, or a missing client certificate, is refused with an error that says so.
 */
import fs from 'node:fs';
import type { ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Connection } from '@temporalio/client';
import { NativeConnection } from '@temporalio/worker';
import { loadTemporalConnection, temporalConnectError } from '@portal/workflows/connection';
import {
  type TestCertificates,
  type TlsTerminator,
  makeTestCertificates,
  startTlsTerminator,
} from '../support/tls-terminator';
import { stackEnv } from './fixtures';
import { uniqueQueue } from './lifecycle/support';
import { killWorkerProcess, startWorkerProcess } from './worker-process';

let certs: TestCertificates;
let serverTls: TlsTerminator;
let mutualTls: TlsTerminator;
const workers: ChildProcess[] = [];

beforeAll(async () => {
  certs = makeTestCertificates();
  serverTls = await startTlsTerminator(stackEnv().TEMPORAL_ADDRESS!, certs);
  mutualTls = await startTlsTerminator(stackEnv().TEMPORAL_ADDRESS!, certs, { requireClientCertificate: true });
});

afterAll(async () => {
  for (const w of workers) await killWorkerProcess(w);
  await serverTls?.close();
  await mutualTls?.close();
  certs?.remove();
});

const base64 = (file: string) => fs.readFileSync(file).toString('base64');

/** The API's client, connected with the options the API builds from `env`. */
async function apiClient(address: string, env: Record<string, string>): Promise<Connection> {
  return Connection.connect({ ...loadTemporalConnection(address, env), connectTimeout: 5_000 });
}

/** Polls (up to 60 s) until `queue` has a workflow poller, asked through `connection`. */
async function untilPolled(connection: Connection, queue: string): Promise<void> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const { pollers } = await connection.workflowService.describeTaskQueue({
      namespace: stackEnv().TEMPORAL_NAMESPACE ?? 'default',
      taskQueue: { name: queue },
      taskQueueType: 1,
    });
    if (pollers?.length) return;
    if (Date.now() > deadline) throw new Error(`no poller on ${queue} within 60 s`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

/** Starts the worker process on a fresh queue through `address` with `env`; the API's client then sees it poll. */
async function workerPollsThrough(address: string, env: Record<string, string>): Promise<void> {
  const queue = uniqueQueue('temporal-tls');
  workers.push(await startWorkerProcess(queue, { TEMPORAL_ADDRESS: address, ...env }));
  const connection = await apiClient(address, env);
  try {
    await untilPolled(connection, queue);
  } finally {
    await connection.close();
  }
}

describe('Temporal through TLS', () => {
  it('TLS with the server CA from a file: the API client and the worker process connect', async () => {
    await workerPollsThrough(serverTls.address, { TEMPORAL_TLS_SERVER_CA_CERT_PATH: certs.serverCa });
  });

  it('mutual TLS from base64 variables, with the server name overridden: both connect', async () => {
    await workerPollsThrough(mutualTls.address, {
      TEMPORAL_TLS_SERVER_CA_CERT_DATA: base64(certs.serverCa),
      TEMPORAL_TLS_SERVER_NAME: 'temporal.test',
      TEMPORAL_TLS_CLIENT_CERT_DATA: base64(certs.clientCert),
      TEMPORAL_TLS_CLIENT_KEY_DATA: base64(certs.clientKey),
    });
  });

  it('an API key goes over TLS (Temporal Cloud): the options carry it and the connection answers', async () => {
    const env = { TEMPORAL_TLS_SERVER_CA_CERT_PATH: certs.serverCa, TEMPORAL_API_KEY: 'test-api-key' };
    const options = loadTemporalConnection(serverTls.address, env);
    expect(options.apiKey).toBe('test-api-key');
    expect(options.tls).toBeDefined();
    const connection = await apiClient(serverTls.address, env);
    await connection.workflowService.getSystemInfo({});
    await connection.close();
    const native = await NativeConnection.connect(options);
    await native.close();
  });
});

describe('Temporal TLS refused', () => {
  /** The error of a client connection and of a worker connection made with `env` through `address`. */
  async function refusals(address: string, env: Record<string, string>): Promise<[string, string]> {
    const options = loadTemporalConnection(address, env);
    const messageOf = (p: Promise<unknown>) =>
      p.then(
        () => 'connected',
        (err: unknown) => temporalConnectError(options, err).message,
      );
    return [
      await messageOf(Connection.connect({ ...options, connectTimeout: 5_000 })),
      await messageOf(NativeConnection.connect(options)),
    ];
  }

  it('without the server CA (the system roots do not know it) or with another CA', async () => {
    for (const env of [{ TEMPORAL_TLS: 'true' }, { TEMPORAL_TLS_SERVER_CA_CERT_PATH: certs.otherCa }] as Record<
      string,
      string
    >[]) {
      const [client, worker] = await refusals(serverTls.address, env);
      const how =
        'TEMPORAL_TLS' in env ? "over TLS, trusting the system's roots" : 'over TLS, trusting the configured server CA';
      expect(client).toContain(`Temporal at ${serverTls.address} could not be reached ${how}`);
      expect(worker).toContain(`Temporal at ${serverTls.address} could not be reached ${how}`);
      expect(worker).toContain('InvalidCertificate(UnknownIssuer)');
    }
  });

  it('mutual TLS without a client certificate', async () => {
    const before = mutualTls.failedHandshakes();
    const [client, worker] = await refusals(mutualTls.address, { TEMPORAL_TLS_SERVER_CA_CERT_PATH: certs.serverCa });
    for (const message of [client, worker]) expect(message).toContain('with no client certificate');
    // Under TLS 1.3 the server refuses the missing certificate after the client's side of the handshake ended:
    // the native client reads that alert, the closed connection or a broken pipe first (CI saw all three). The
    // terminator's count of refused handshakes is what proves the refusal was the certificate's.
    expect(worker).toMatch(/CertificateRequired|connection closed|broken pipe/);
    expect(mutualTls.failedHandshakes()).toBeGreaterThan(before);
  });
});
