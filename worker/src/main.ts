/**
 * The worker process: connects to Temporal and PostgreSQL, converges the reviewers' digest, the access
 * expiry, the audit seal and the provisioning reconciliation schedules, runs the reconciler (on start and on a
 * timer), the back-channel logout and provisioning listeners and the worker until SIGINT/SIGTERM.
 */
import fs from 'node:fs';
import path from 'node:path';
import { Client } from '@temporalio/client';
import { msToNumber } from '@temporalio/common/lib/time';
import { NativeConnection } from '@temporalio/worker';
import { createPrisma, sealSigningKey } from '@portal/db';
import { startTracing, workflowClientTracing } from '@portal/workflows/telemetry';
import { loadTemporalConnection, temporalConnectError } from '@portal/workflows/connection';
import { WorkerConfigSchema, directoryConfig, parseEnv } from './config';
import { ensureAccessExpirySchedule } from './access-expiry-schedule';
import { ensureAuditSealSchedule } from './audit-seal-schedule';
import { ensureReviewerDigestSchedule } from './digest-schedule';
import { createWorkerMetrics } from './observability/activity-metrics';
import { startWorkerMetricsServer } from './observability/metrics-server';
import { installSdkMetrics } from './observability/sdk-metrics';
import { startReconciler } from './reconciler';
import { listenForLogoutNotices } from './sso-logout-listener';
import { listenForProvisioningNotices } from './provisioning-notices';
import { ensureProvisioningSchedules } from './provisioning-schedules';
import { auditVerifySettings } from './activities';
import { createWorker } from './worker';

/**
 * The workflow bundle built ahead of time beside the built entry (`dist/workflow-bundle.js`, written by
 * scripts/src/build.ts), so the worker does not run webpack at every start; absent when run from sources.
 */
function prebuiltWorkflowBundle(): { codePath: string } | undefined {
  const codePath = path.join(import.meta.dirname, 'workflow-bundle.js');
  return fs.existsSync(codePath) ? { codePath } : undefined;
}

async function main(): Promise<void> {
  // The first line names the runtime: operators (and the stack test) see which Node runs the worker.
  console.log(`worker starting on Node ${process.version} (pid ${process.pid})`);
  const cfg = parseEnv(WorkerConfigSchema);
  // Traces over OTLP when OTEL_EXPORTER_OTLP_ENDPOINT is set (issue 24); off otherwise.
  const tracing = startTracing('portal-worker');
  // TLS, mutual TLS or an API key (TEMPORAL_TLS_*, TEMPORAL_API_KEY), validated before anything connects.
  const temporalOptions = loadTemporalConnection(cfg.TEMPORAL_ADDRESS);
  // Metrics (issue 24) on WORKER_METRICS_PORT: the SDK's exporter must be installed before the first connection.
  const metrics = cfg.WORKER_METRICS_PORT ? createWorkerMetrics() : undefined;
  const stopMetrics = cfg.WORKER_METRICS_PORT
    ? await startWorkerMetricsServer({
        host: cfg.WORKER_METRICS_HOST,
        port: cfg.WORKER_METRICS_PORT,
        metrics: metrics!,
        sdkMetricsUrl: await installSdkMetrics(),
      })
    : undefined;
  const prisma = createPrisma(cfg.DATABASE_URL);
  const connection = await NativeConnection.connect(temporalOptions).catch((err: unknown) => {
    throw temporalConnectError(temporalOptions, err);
  });
  const client = new Client({
    connection,
    namespace: cfg.TEMPORAL_NAMESPACE,
    interceptors: { workflow: workflowClientTracing() },
  });
  const worker = await createWorker({
    connection,
    namespace: cfg.TEMPORAL_NAMESPACE,
    taskQueue: cfg.TEMPORAL_TASK_QUEUE,
    prisma,
    mail: { smtpUrl: cfg.SMTP_URL, from: cfg.MAIL_FROM, portalUrl: cfg.PORTAL_URL, linkKey: cfg.MAIL_LINK_KEY },
    directory: directoryConfig(),
    sso: {
      keyEncryptionKey: cfg.OIDC_KEY_ENCRYPTION_KEY,
      issuer: cfg.OIDC_ISSUER ?? `${cfg.PORTAL_URL.replace(/\/$/, '')}/oidc`,
      production: cfg.NODE_ENV === 'production',
    },
    accessReview: { ACCESS_REVIEW_STUDY_ROLE: cfg.ACCESS_REVIEW_STUDY_ROLE, mailDeadline: cfg.MAIL_DEADLINE },
    proxyCommentMarker: cfg.PROXY_COMMENT_MARKER,
    auditSeal: cfg.AUDIT_SEAL_PRIVATE_KEY
      ? {
          databaseUrl: cfg.DATABASE_URL,
          key: sealSigningKey(cfg.AUDIT_SEAL_PRIVATE_KEY),
          gapHorizonMs: msToNumber(cfg.AUDIT_LATE_AFTER as '1m'),
        }
      : undefined,
    auditVerify: auditVerifySettings({
      databaseUrl: cfg.DATABASE_URL,
      publicKeys: cfg.AUDIT_SEAL_PUBLIC_KEYS,
      privateKey: cfg.AUDIT_SEAL_PRIVATE_KEY,
      lateAfterMs: msToNumber(cfg.AUDIT_LATE_AFTER as '1m'),
    }),
    provisioning: { key: cfg.PROVISIONING_KEY },
    approval: { timeZone: cfg.NETWORK_TIME_ZONE, holidays: cfg.NETWORK_HOLIDAYS },
    workflowBundle: prebuiltWorkflowBundle(),
    metrics,
    tracing,
  });
  if (cfg.REVIEWER_DIGEST_TO) {
    await ensureReviewerDigestSchedule(client, {
      every: cfg.REVIEWER_DIGEST_EVERY,
      waitingLongerThan: cfg.REQUEST_REMINDER_AFTER,
      to: cfg.REVIEWER_DIGEST_TO,
      taskQueue: cfg.TEMPORAL_TASK_QUEUE,
    });
  }
  await ensureAccessExpirySchedule(client, {
    every: cfg.ACCESS_EXPIRY_EVERY,
    timeZone: cfg.NETWORK_TIME_ZONE,
    noticeDays: cfg.ACCESS_EXPIRY_NOTICE_DAYS,
    taskQueue: cfg.TEMPORAL_TASK_QUEUE,
  });
  if (cfg.AUDIT_SEAL_PRIVATE_KEY)
    await ensureAuditSealSchedule(client, {
      every: cfg.AUDIT_SEAL_EVERY,
      taskQueue: cfg.TEMPORAL_TASK_QUEUE,
      input: { maxRowsPerSeal: cfg.AUDIT_SEAL_MAX_ROWS },
    });
  else console.log('audit sealing is off: AUDIT_SEAL_PRIVATE_KEY is unset (docs/decisions.md)');
  if (!cfg.PROVISIONING_KEY) console.log('provisioning is off: PROVISIONING_KEY is unset (docs/decisions.md)');
  await ensureProvisioningSchedules(client, prisma, cfg.TEMPORAL_TASK_QUEUE);
  const provisioningTiming = {
    attemptTimeout: cfg.PROVISIONING_ATTEMPT_TIMEOUT,
    maxRetryInterval: cfg.PROVISIONING_MAX_RETRY_INTERVAL,
  };
  const stopReconciler = startReconciler({
    prisma,
    client,
    taskQueue: cfg.TEMPORAL_TASK_QUEUE,
    graceMs: msToNumber(cfg.RECONCILE_GRACE as '1m'),
    everyMs: msToNumber(cfg.RECONCILE_EVERY as '1m'),
    notificationDeadline: cfg.MAIL_DEADLINE,
    writeDeadline: cfg.WRITE_DEADLINE,
    writeAttemptTimeout: cfg.WRITE_ATTEMPT_TIMEOUT,
    provisioning: provisioningTiming,
    log: (m) => console.log(m),
  });
  const stopListener = listenForLogoutNotices({
    connectionString: cfg.DATABASE_URL,
    prisma,
    client,
    taskQueue: cfg.TEMPORAL_TASK_QUEUE,
    log: (m) => console.log(m),
  });
  const stopProvisioningListener = listenForProvisioningNotices({
    connectionString: cfg.DATABASE_URL,
    prisma,
    client,
    taskQueue: cfg.TEMPORAL_TASK_QUEUE,
    ...provisioningTiming,
    log: (m) => console.log(m),
  });
  console.log(`worker running on task queue ${cfg.TEMPORAL_TASK_QUEUE} (${cfg.TEMPORAL_ADDRESS})`);
  await worker.run();
  stopReconciler();
  await stopListener();
  await stopProvisioningListener();
  await stopMetrics?.();
  await connection.close();
  await prisma.$disconnect();
  await tracing?.shutdown();
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
