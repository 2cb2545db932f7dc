/**
 * Creates the Temporal worker: the workflows of @portal/workflows and the lifecycle's activities. Used by
 * the worker process (main.ts) and in-process by the workflow tests, which may replace single activities
 * (`overrides`) to make a dependency fail on purpose.
 */
import { createRequire } from 'node:module';
import path from 'node:path';
import { type NativeConnection, Worker, type WorkerOptions } from '@temporalio/worker';
import type { PrismaClient } from '@portal/db';
import type { DirectoryConfig } from '@portal/directory';
import { type Tracing, workerTracing } from '@portal/workflows/telemetry';
import {
  type AuditSealSettings,
  type AuditVerifySettings,
  type ProvisioningSettings,
  type MailSettings,
  type PortalActivities,
  type SsoSettings,
  type WorkerAccessReviewSettings,
  type WorkerApprovalSettings,
  createActivities,
} from './activities';
import { type WorkerMetrics, activityMetricsInterceptor } from './observability/activity-metrics';

const require = createRequire(import.meta.url);

/**
 * Absolute path of the workflows' source entry, bundled at start when no prebuilt bundle is given (tests,
 * development). The source, not the package's built `dist/`, so a bundle always reflects the code in the tree.
 */
export const workflowsPath = path.join(
  path.dirname(require.resolve('@portal/workflows/package.json')),
  'src',
  'index.ts',
);

export async function createWorker(opts: {
  connection: NativeConnection;
  namespace: string;
  taskQueue: string;
  prisma: PrismaClient;
  mail: MailSettings;
  /** The directory of the kinds' outside effects (a registration's entry); without it those saves fail. */
  directory?: DirectoryConfig;
  overrides?: Partial<PortalActivities>;
  /** Signs back-channel logout tokens (issue 22); without it none is sent. */
  sso?: SsoSettings;
  /**
   * Access review campaigns' settings (issue 25: ACCESS_REVIEW_STUDY_ROLE, default 'LAO Staff'; the mail deadline
   * of scheduled campaigns).
   */
  accessReview?: WorkerAccessReviewSettings;
  /** The marker of the comments a proxy batch files (PROXY_COMMENT_MARKER, 000 §3); the default when absent. */
  proxyCommentMarker?: string;
  /** The audit sealer's database and key (AUDIT_SEAL_PRIVATE_KEY); without it the sealing step fails. */
  auditSeal?: AuditSealSettings;
  /** The audit verifier's database and public keys (Audit Integrity's 'Verify now'); without it verifying fails. */
  auditVerify?: AuditVerifySettings;
  /** PROVISIONING_KEY (issue 41): opens the SCIM bearer tokens; without it nothing is provisioned. */
  provisioning?: ProvisioningSettings;
  /** NETWORK_TIME_ZONE and NETWORK_HOLIDAYS of the approval stages' working days; UTC, none when absent. */
  approval?: WorkerApprovalSettings;
  /** A bundle built ahead of time (the worker process, tests), instead of bundling `workflowsPath` at start. */
  workflowBundle?: WorkerOptions['workflowBundle'];
  /**
   * Where workflow spans go (issue 24 "Traces"). The tracing interceptors are installed either way (the bundle
   * built ahead of time includes them), so a worker with tracing off runs the same workflow code.
   */
  tracing?: Tracing | null;
  /** Records each activity execution's outcome and duration (issue 24 metrics); without it nothing is counted. */
  metrics?: WorkerMetrics;
  /**
   * How many activities this worker runs at once (Temporal's maxConcurrentActivityTaskExecutions); the SDK's
   * default without it. An attempt past its deadline keeps its slot until its own code returns.
   */
  activitySlots?: number;
}): Promise<Worker> {
  const tracing = workerTracing(opts.tracing ?? null, { bundled: !!opts.workflowBundle });
  return Worker.create({
    connection: opts.connection,
    namespace: opts.namespace,
    taskQueue: opts.taskQueue,
    ...(opts.workflowBundle ? { workflowBundle: opts.workflowBundle } : { workflowsPath }),
    ...(opts.activitySlots ? { maxConcurrentActivityTaskExecutions: opts.activitySlots } : {}),
    activities: {
      ...createActivities(
        opts.prisma,
        opts.mail,
        opts.directory,
        opts.sso,
        opts.accessReview,
        opts.proxyCommentMarker,
        opts.auditSeal,
        opts.auditVerify,
        opts.provisioning,
        opts.approval,
      ),
      ...opts.overrides,
    },
    // A bundle built ahead of time already holds the workflow interceptors (WORKFLOW_TRACING_MODULE).
    ...tracing,
    interceptors: {
      ...tracing.interceptors,
      activity: [
        ...(tracing.interceptors?.activity ?? []),
        ...(opts.metrics ? [activityMetricsInterceptor(opts.metrics)] : []),
      ],
    },
  });
}
