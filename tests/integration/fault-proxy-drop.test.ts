/**
 * The fault proxy's lost reply (issue 41, tests/support/fault-proxy.ts `dropAnswers`): the request reaches the
 * dependency, which does the work and answers, and the client's connection is closed before any of the answer
 * arrives; after the counted drops the proxy forwards again by itself. Against a plain HTTP server of the test's
 * own: the provisioning tests put the proxy in front of scim2-server.
 */
import http from 'node:http';
import type net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FaultProxy, startFaultProxy } from '../support/fault-proxy';

let server: http.Server;
let proxy: FaultProxy;
let served = 0;

beforeAll(async () => {
  server = http.createServer((req, res) => {
    served += 1;
    res.setHeader('content-type', 'text/plain');
    res.end(`answer ${served}`);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  proxy = await startFaultProxy({ host: '127.0.0.1', port: (server.address() as net.AddressInfo).port });
});

afterAll(async () => {
  await proxy?.close();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

const url = () => `http://127.0.0.1:${proxy.port}/`;

describe('dropAnswers', () => {
  it('lets the request through, loses the answer, then forwards again after the count', async () => {
    expect(await (await fetch(url())).text()).toBe('answer 1');
    proxy.dropAnswers(1);
    expect(proxy.mode()).toBe('drop-answers');
    await expect(fetch(url())).rejects.toThrow();
    // The dependency did answer: only the client never heard it.
    expect(served).toBe(2);
    expect(proxy.dropped()).toBe(1);
    expect(proxy.mode()).toBe('forward');
    expect(await (await fetch(url())).text()).toBe('answer 3');
  });

  it('drops every answer until heal() without a count', async () => {
    proxy.dropAnswers();
    await expect(fetch(url())).rejects.toThrow();
    await expect(fetch(url())).rejects.toThrow();
    expect(proxy.dropped()).toBe(3);
    proxy.heal();
    expect(await (await fetch(url())).text()).toBe(`answer ${served}`);
    expect(served).toBe(6);
  });
});
