/**
 * Prisma CLI configuration: the JavaScript (wasm) schema engine through the pg driver adapter, so
 * generate / migrate run offline (ENVIRONMENT.md "Prisma offline").
 */
import path from 'node:path';
import { defineConfig } from 'prisma/config';
import { PrismaPg } from '@prisma/adapter-pg';
import { poolConfigFromUrl } from './src/url';

export default defineConfig({
  experimental: { adapter: true },
  engine: 'js',
  schema: path.join(import.meta.dirname, 'schema.prisma'),
  migrations: { path: path.join(import.meta.dirname, 'migrations') },
  // allowExitOnIdle: the CLI exits as soon as it is done instead of waiting for idle connections to time out.
  adapter: async () => new PrismaPg({ ...poolConfigFromUrl(process.env.DATABASE_URL ?? ''), allowExitOnIdle: true }),
});
