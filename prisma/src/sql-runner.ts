/**
 * One statement run in the caller's transaction, whatever holds it: a Prisma interactive transaction (the
 * worker's activities) or one connection of a `pg` pool (the API's hot filing path, where Prisma's client
 * runtime cost more than PostgreSQL spent on the statements: issue 24 "Filing a request"). Code written on a
 * runner reads only what both give alike: int4, text, boolean, text[] and json (timestamps as text).
 */
import type { Prisma } from '../generated/client/client';

/** Runs `sql` and returns its rows, unparsed (the caller parses them with zod). */
export type SqlRunner = (sql: Prisma.Sql) => Promise<unknown[]>;

/** The runner of a Prisma client or interactive transaction. */
export const prismaRunner =
  (tx: Pick<Prisma.TransactionClient, '$queryRaw'>): SqlRunner =>
  (sql) =>
    tx.$queryRaw<unknown[]>(sql);
