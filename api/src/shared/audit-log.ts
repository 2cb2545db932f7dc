/**
 * Writing the audit trail (/app/audit-trail), shared by every feature that changes something: the one writer
 * module is @portal/db's (prisma/src/audit-trail/write.ts), so api, worker and seed write rows alike.
 * Reading it is the audit feature's (features/audit). Nothing edits or deletes a row.
 */
export { type AuditActor, type AuditEntry, recordAudit } from '@portal/db';
