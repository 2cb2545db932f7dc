/** What the routes need, created once per process (or per test) and passed explicitly. */
import type { Client } from '@temporalio/client';
import type { PrismaClient } from '@portal/db';
import type { DirectoryConfig } from '@portal/directory';
import type { ApiConfig } from './config';

export interface Deps {
  cfg: ApiConfig;
  prisma: PrismaClient;
  temporal: Client;
  directory: DirectoryConfig;
}
