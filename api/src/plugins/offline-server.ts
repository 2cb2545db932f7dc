/**
 * The API server as the API process builds it, for the unit tests that read its routes (the route catalogue,
 * the OpenAPI document): its database, directory and Temporal addresses lead nowhere, so no call reaches a
 * service. `close` closes the server and its lazy Temporal connection.
 */
import type { FastifyInstance } from 'fastify';
import { Client, Connection } from '@temporalio/client';
import { createPrisma } from '@portal/db';
import { loadApiConfig } from '../config';
import { buildServer } from '../server';

/** The API's settings with every service on port 1 of the loopback, where nothing answers. */
const NOWHERE = {
  DATABASE_URL: 'postgres://nobody@127.0.0.1:1/none',
  LDAP_URL: 'ldap://127.0.0.1:1',
  LDAP_ADMIN_PASSWORD: 'unused',
  ELEARNING_URL_KEY: 'unused-offline-server-elearning-url-key',
  LOG_LEVEL: 'silent',
};

export interface OfflineServer {
  app: FastifyInstance;
  close: () => Promise<void>;
}

/** Builds and readies the server. @throws whatever building the server throws (the connection is closed). */
export async function buildOfflineServer(): Promise<OfflineServer> {
  const cfg = loadApiConfig(NOWHERE);
  const connection = Connection.lazy({ address: cfg.TEMPORAL_ADDRESS });
  try {
    const app = await buildServer({
      cfg,
      prisma: createPrisma(cfg.DATABASE_URL),
      temporal: new Client({ connection, namespace: cfg.TEMPORAL_NAMESPACE }),
      directory: cfg,
    });
    await app.ready();
    return {
      app,
      close: async () => {
        await app.close();
        await connection.close();
      },
    };
  } catch (err) {
    await connection.close();
    throw err;
  }
}
