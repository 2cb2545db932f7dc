/**
 * The Temporal SDK's own runtime metrics (issue 24: pollers, task latencies, slots, sticky cache, request
 * failures), exported by its native core in Prometheus text on a loopback port that metrics-server.ts reads
 * at each scrape, so one /metrics carries both the SDK's and the portal's series.
 */
import net from 'node:net';
import { DefaultLogger, Runtime } from '@temporalio/worker';

/** A free loopback port, found by binding port 0 (the core's exporter needs a fixed address). */
async function freeLoopbackPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve, reject) => server.once('error', reject).listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/**
 * Installs the Temporal runtime with its Prometheus exporter; must run before any connection is made.
 * @returns the exporter's URL.
 */
export async function installSdkMetrics(): Promise<string> {
  const bindAddress = `127.0.0.1:${await freeLoopbackPort()}`;
  Runtime.install({
    logger: new DefaultLogger('INFO'),
    telemetryOptions: {
      metrics: { prometheus: { bindAddress, countersTotalSuffix: true, useSecondsForDurations: true } },
    },
  });
  return `http://${bindAddress}/metrics`;
}
