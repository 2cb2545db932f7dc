/**
 * PostgreSQL statements as spans (issue 24 "Traces"): `@opentelemetry/instrumentation-pg` applied to the
 * `pg` module the process already loaded (Prisma's driver adapter and the listeners use it), since the
 * services are ES modules and its require hook would never see `pg` being loaded. One span per statement,
 * a child of whatever span is active (the HTTP request, an activity).
 */
import type { TracerProvider } from '@opentelemetry/api';
import { PgInstrumentation } from '@opentelemetry/instrumentation-pg';
import pg from 'pg';

/** Patches `pg.Client` to trace its queries with `provider`. @returns the undo. */
export function tracePostgres(provider: TracerProvider): () => void {
  const instrumentation = new PgInstrumentation({ enhancedDatabaseReporting: false });
  instrumentation.setTracerProvider(provider);
  const [pgModule] = instrumentation.getModuleDefinitions();
  pgModule?.patch?.(pg);
  return () => {
    pgModule?.unpatch?.(pg);
    instrumentation.disable();
  };
}
