/** @portal/worker: the worker factory and activities, for the worker process and in-process tests. */
export { createWorker, workflowsPath } from './worker';
export { createActivities, type MailSettings } from './activities';
export { WorkerConfigSchema, parseEnv } from './config';
