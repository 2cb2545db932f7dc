/** The worker process: connects to Temporal and PostgreSQL and runs until SIGINT/SIGTERM. */
import { NativeConnection } from '@temporalio/worker';
import { createPrisma } from '@portal/db';
import { WorkerConfigSchema, parseEnv } from './config';
import { createWorker } from './worker';

async function main(): Promise<void> {
  const cfg = parseEnv(WorkerConfigSchema);
  const prisma = createPrisma(cfg.DATABASE_URL);
  const connection = await NativeConnection.connect({ address: cfg.TEMPORAL_ADDRESS });
  const worker = await createWorker({
    connection,
    namespace: cfg.TEMPORAL_NAMESPACE,
    taskQueue: cfg.TEMPORAL_TASK_QUEUE,
    prisma,
    mail: { smtpUrl: cfg.SMTP_URL, from: cfg.MAIL_FROM, portalUrl: cfg.PORTAL_URL },
  });
  console.log(`worker running on task queue ${cfg.TEMPORAL_TASK_QUEUE} (${cfg.TEMPORAL_ADDRESS})`);
  await worker.run();
  await connection.close();
  await prisma.$disconnect();
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
