/**
 * The proxy comment marker is configuration (000 §3 'configured prepend segment'): a single proxy request and a
 * batch's requests are written with PROXY_COMMENT_MARKER, and the web app reads every marker a stored comment
 * may carry (the current one, then PROXY_COMMENT_EARLIER_MARKERS) from the API, since stored comments are
 * never rewritten.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AccessControl, DEFAULT_SIGNATURE_MEANINGS } from '@portal/contract';
import { demoRequestParts } from '../fixtures';
import { type Session, type TestApi, caller, signIn, startApi, startWorker } from '../harness';
import { uniqueQueue } from '../lifecycle/support';
import { batchEnded, fileBatch, subjectsAt } from './support';

const taskQueue = uniqueQueue('proxy-marker');
const MARKER = '[Filed by proxy]';
let api: TestApi;
let stopWorker: () => Promise<void>;
let block: AccessControl;
let laostaff: Session;

beforeAll(async () => {
  api = await startApi({
    TEMPORAL_TASK_QUEUE: taskQueue,
    PROXY_COMMENT_MARKER: MARKER,
    PROXY_COMMENT_EARLIER_MARKERS: '[Proxy request], [Proxy v0]',
  });
  stopWorker = await startWorker(api, taskQueue);
  block = (await demoRequestParts(api.prisma)).block;
  laostaff = await signIn(api.app, 'laostaff');
});

afterAll(async () => {
  await stopWorker?.();
  await api?.close();
});

describe('the configured proxy comment marker', () => {
  it('tells any signed-in user every marker, the current one first, and nobody else', async () => {
    const res = await caller(api.app)(laostaff, 'GET', '/rest/secure/portal_settings');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().proxyCommentMarkers).toEqual([MARKER, '[Proxy request]', '[Proxy v0]']);
    expect(res.json().signatures).toEqual({ enabled: false, meanings: DEFAULT_SIGNATURE_MEANINGS });
    expect((await caller(api.app)(null, 'GET', '/rest/secure/portal_settings')).statusCode).toBe(401);
  });

  it('writes a single proxy request and a batch with the current marker', async () => {
    const [single, batched] = await subjectsAt(api.prisma, 'MA036', 2, 'pbmark');
    const filed = await caller(api.app)(laostaff, 'POST', '/rest/secure/user_access_mod_request', {
      portalUserId: single!.id,
      requestType: 'NEW',
      accessControls: [block],
      requesterComments: 'single',
    });
    expect(filed.statusCode, filed.body).toBe(200);
    expect(filed.json().requesterComments).toMatch(/^\[Filed by proxy\] proxy=\{.*\}\nsingle$/);

    const batchId = await fileBatch(api, laostaff, [batched!], block, 'batched');
    expect((await batchEnded(api.prisma, batchId)).status).toBe('COMPLETED');
    const request = await api.prisma.accessModRequest.findFirstOrThrow({ where: { subjectUserId: batched!.id } });
    expect(request.requesterComments).toMatch(/^\[Filed by proxy\] proxy=\{.*\}\nbatched$/);
  });
});
