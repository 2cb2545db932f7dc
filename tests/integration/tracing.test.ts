/**
 * Traces (issue 24 "Traces"): with a tracer provider registered (spans collected in memory instead of sent
 * over OTLP), one trace runs from the HTTP request through the workflow start or update to each activity and
 * the PostgreSQL statements and LDAP operations it makes. Checked for a filing (a registration filed by
 * proxy) and a review (its approval, which writes the person's directory entry), on the real API, worker,
 * Temporal dev server, PostgreSQL and slapd; and a caller's `traceparent` is continued.
 */
import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InMemorySpanExporter, type ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { startTracing } from '@portal/workflows/telemetry';
import { type TestApi, startApi, startWorker } from './harness';
import { uniqueQueue, until } from './lifecycle/support';
import { useRegistrationReview } from './outside-effects/support';

const exporter = new InMemorySpanExporter();
const tracing = startTracing('portal-test', { exporter })!;
const queue = uniqueQueue('tracing');
const apis: TestApi[] = [];
let stopWorker: () => Promise<void>;

beforeAll(async () => {
  apis.push(await startApi({ TEMPORAL_TASK_QUEUE: queue }));
  stopWorker = await startWorker(apis[0]!, queue, { directory: apis[0]!.directory, tracing });
});
const review = useRegistrationReview(apis);

afterAll(async () => {
  await stopWorker?.();
  await apis[0]?.close();
  await tracing.shutdown();
});

const spans = () => exporter.getFinishedSpans();
const parentOf = (s: ReadableSpan) => s.parentSpanId;

/** The server span of the request `method route` made last. */
const httpSpan = (method: string, route: string) =>
  spans()
    .filter((s) => s.name === `${method} ${route}`)
    .at(-1);

/** Every span of `traceId`, by id. */
const traceOf = (traceId: string) =>
  new Map(
    spans()
      .filter((s) => s.spanContext().traceId === traceId)
      .map((s) => [s.spanContext().spanId, s]),
  );

/** Whether `span` descends from `ancestor` within `all`. */
function descends(span: ReadableSpan, ancestor: ReadableSpan, all: Map<string, ReadableSpan>): boolean {
  for (let at: ReadableSpan | undefined = span; at; at = all.get(parentOf(at) ?? '')) {
    if (at === ancestor) return true;
  }
  return false;
}

/** Waits until the trace of `root` holds a span named by each of `names` (a prefix), all below `root`. */
async function chainBelow(root: ReadableSpan, names: string[]): Promise<Map<string, ReadableSpan>> {
  let all = new Map<string, ReadableSpan>();
  const complete = () =>
    names.every((n) => [...all.values()].some((s) => s.name.startsWith(n) && descends(s, root, all)));
  await until(
    async () => {
      all = traceOf(root.spanContext().traceId);
      return complete();
    },
    `spans ${names.join(', ')} below ${root.name}`,
    30_000,
  ).catch((err: Error) => {
    const seen = [...all.values()].map((s) => `${s.name} ${s.spanContext().spanId}<-${s.parentSpanId ?? ''}`);
    throw new Error(`${err.message}; the trace holds: ${seen.join(' | ')}`);
  });
  return all;
}

describe('one trace from the request to the activities, PostgreSQL and LDAP (issue 24)', () => {
  it('traces a filing and its review', async () => {
    const api = apis[0]!;
    const reg = await review.file(api);
    const filing = httpSpan('POST', '/rest/secure/user_registration');
    expect(
      filing,
      spans()
        .map((s) => s.name)
        .join(', '),
    ).toBeDefined();
    // The filing's own transaction and the workflow start are the request's children.
    const filed = await chainBelow(filing!, ['pg.query:INSERT', 'StartWorkflow:registrationWorkflow']);
    const startSpan = [...filed.values()].find((s) => s.name.startsWith('StartWorkflow:'))!;
    expect(parentOf(startSpan)).toBe(filing!.spanContext().spanId);

    const username = `trace${crypto.randomBytes(3).toString('hex')}`;
    const res = await review.approve(api, reg, username);
    expect(res.statusCode, res.body).toBeLessThan(300);
    const approval = httpSpan('PUT', '/rest/secure/user_registration_action/:action');
    expect(
      approval,
      spans()
        .filter((s) => s.name.startsWith('PUT'))
        .map((s) => s.name)
        .join(', '),
    ).toBeDefined();
    const reviewed = await chainBelow(approval!, [
      'StartWorkflowUpdate:',
      'StartActivity:',
      'RunActivity:',
      'pg.query:UPDATE',
      'LDAP add',
    ]);
    const ldap = [...reviewed.values()].find((s) => s.name === 'LDAP add')!;
    // The directory write happens in an activity of the worker, below the reviewer's request.
    expect([...reviewed.values()].some((s) => s.name.startsWith('RunActivity:') && descends(ldap, s, reviewed))).toBe(
      true,
    );
    // The workflow run, ended by the approval, belongs to the filing's trace, below its start.
    await chainBelow(startSpan, ['RunWorkflow:registrationWorkflow']);
  });

  it("continues a caller's traceparent", async () => {
    const traceId = crypto.randomBytes(16).toString('hex');
    const parent = crypto.randomBytes(8).toString('hex');
    await apis[0]!.app.inject({
      method: 'GET',
      url: '/rest/public/password_validation/rules',
      headers: { traceparent: `00-${traceId}-${parent}-01` },
    });
    const span = spans().find((s) => s.spanContext().traceId === traceId && s.name.startsWith('GET '));
    expect(span?.parentSpanId).toBe(parent);
  });
});
