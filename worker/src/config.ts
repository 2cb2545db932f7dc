import { z } from 'zod';

/** Worker settings from the environment, validated at start-up. */
export const WorkerConfigSchema = z.object({
  DATABASE_URL: z.string().regex(/^postgres(ql)?:\/\//, 'must be a postgres:// URL'),
  TEMPORAL_ADDRESS: z.string().min(3).default('127.0.0.1:7233'),
  TEMPORAL_NAMESPACE: z.string().min(1).default('default'),
  TEMPORAL_TASK_QUEUE: z.string().min(1).default('portal-requests'),
  SMTP_URL: z.string().regex(/^smtps?:\/\//, 'must be an smtp:// or smtps:// URL'),
  MAIL_FROM: z.string().min(3).default('portal-gateway@portal.test'),
  PORTAL_URL: z.string().default('http://127.0.0.1:8080'),
});
export type WorkerConfig = z.infer<typeof WorkerConfigSchema>;

/**
 * Parses `env` with `schema`.
 * @throws Error naming every bad or missing variable, e.g. "DATABASE_URL: must be a postgres:// URL".
 */
export function parseEnv<T extends z.ZodTypeAny>(schema: T, env: NodeJS.ProcessEnv = process.env): z.infer<T> {
  const parsed = schema.safeParse(env);
  if (parsed.success) return parsed.data;
  const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
  throw new Error(`Invalid configuration:\n${lines.join('\n')}`);
}
