/**
 * oidc-provider's storage adapter on PostgreSQL (issue 22 "State in PostgreSQL"): sessions, grants,
 * interactions, codes and tokens are rows of `OidcPayload` keyed by (model name, id), so every API process
 * sees the same ones and a restart signs nobody out. Expired rows are never returned (and are removed lazily
 * by `find`). `Client` is not stored here: clients are the systems' `SsoClient` rows (clients.ts).
 */
import type { Adapter, AdapterPayload } from 'oidc-provider';
import { type Prisma, type PrismaClient } from '@portal/db';
import { clientMetadata, storableKey } from './clients';

const expiry = (expiresIn: number | undefined): Date | null =>
  expiresIn ? new Date(Date.now() + expiresIn * 1000) : null;

const live = (row: { payload: Prisma.JsonValue; expiresAt: Date | null; consumedAt: Date | null } | null) => {
  if (!row || (row.expiresAt && row.expiresAt.getTime() <= Date.now())) return undefined;
  const payload = row.payload as unknown as AdapterPayload;
  return row.consumedAt ? { ...payload, consumed: Math.floor(row.consumedAt.getTime() / 1000) } : payload;
};

/** @returns the adapter class oidc-provider instantiates once per model name. */
export function prismaAdapter(prisma: PrismaClient): new (name: string) => Adapter {
  return class PrismaOidcAdapter implements Adapter {
    constructor(private readonly kind: string) {}

    async upsert(id: string, payload: AdapterPayload, expiresIn: number): Promise<void> {
      const data = {
        payload: payload as unknown as Prisma.InputJsonValue,
        grantId: payload.grantId ?? null,
        uid: payload.uid ?? null,
        userCode: payload.userCode ?? null,
        expiresAt: expiry(expiresIn),
      };
      await prisma.oidcPayload.upsert({
        where: { kind_id: { kind: this.kind, id } },
        create: { kind: this.kind, id, ...data },
        update: data,
      });
    }

    async find(id: string): Promise<AdapterPayload | undefined> {
      if (this.kind === 'Client') return clientMetadata(prisma, id);
      if (!storableKey(id)) return undefined;
      return live(await prisma.oidcPayload.findUnique({ where: { kind_id: { kind: this.kind, id } } }));
    }

    async findByUid(uid: string): Promise<AdapterPayload | undefined> {
      if (!storableKey(uid)) return undefined;
      return live(await prisma.oidcPayload.findFirst({ where: { kind: this.kind, uid } }));
    }

    async findByUserCode(userCode: string): Promise<AdapterPayload | undefined> {
      if (!storableKey(userCode)) return undefined;
      return live(await prisma.oidcPayload.findFirst({ where: { kind: this.kind, userCode } }));
    }

    async consume(id: string): Promise<void> {
      await prisma.oidcPayload.updateMany({ where: { kind: this.kind, id }, data: { consumedAt: new Date() } });
    }

    async destroy(id: string): Promise<void> {
      await prisma.oidcPayload.deleteMany({ where: { kind: this.kind, id } });
    }

    async revokeByGrantId(grantId: string): Promise<void> {
      await prisma.oidcPayload.deleteMany({ where: { grantId } });
    }
  };
}
