/**
 * A reviewer's actions on a registration (001 §2.4, §7 PUT user_registration/{id}, PUT
 * user_registration_action/{approve|deny}, DELETE user_registration/{id}), sent through the lifecycle's
 * `reviewRequest`: 200 with the fresh registration once committed, 202 while still processing (retrying
 * with the same attempt key is safe), 304 (nothing changed), 409 (another save runs), 422. The approval's
 * refusals are checked here first (001 §4 Approval warning, §8) and again by the worker's commit.
 */
import type {
  FieldErrors,
  Registration,
  RegistrationActionBody,
  RegistrationDeleteQuery,
  RegistrationReviewPayload,
  RegistrationStatus,
  RegistrationUpdateBody,
  ReviewProcessing,
} from '@portal/contract';
import { APPROVAL_WARNING_KEY, REGISTRATION_MESSAGES, approvalProblems } from '@portal/contract';
import type { Registration as RegistrationRow } from '@portal/db';
import { findMatchByUuid, findRegisteredEntry, usernameExists } from '@portal/directory';
import { registrationDefinition, workflowIdOf } from '@portal/workflows';
import type { FastifyRequest } from 'fastify';
import type { AuthContext } from '../../../auth/guard';
import type { Deps } from '../../../deps';
import { notFound, unavailable, unprocessable } from '../../../http/errors';
import { sendReview } from '../../../shared/review';
import { registrationView } from './view';
import { withRequestSignature } from '../../../shared/request-signatures';

const STATUS_KEY = 'registrationStatus';
const USERNAME = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

/** The pending registration `id`. @throws 404, or 422 when it was already approved, denied or deleted. */
async function pending(deps: Deps, id: number): Promise<RegistrationRow> {
  const row = await deps.prisma.registration.findUnique({ where: { id } });
  if (!row || row.registrationStatus === 'DELETED') throw notFound(REGISTRATION_MESSAGES.loadUserFailed);
  if (row.registrationStatus !== 'PENDING') {
    throw unprocessable({
      [STATUS_KEY]: [`The registration is ${row.registrationStatus} and can no longer be changed.`],
    });
  }
  return row;
}

/**
 * Whether a directory entry holds `username`, other than the entry this registration's own earlier approval made
 * (under its workflow id): an approval that failed after its entry was written (issue 21 case 2; a directory that
 * answered late) is saved again with the same choice, and the worker adopts that entry.
 */
async function usernameTaken(deps: Deps, username: string, row: RegistrationRow): Promise<boolean> {
  if (!(await usernameExists(deps.directory, username))) return false;
  const own = await findRegisteredEntry(deps.directory, workflowIdOf(registrationDefinition, row.id));
  return own?.username !== username;
}

async function unknownPortalRoles(deps: Deps, ids: number[]): Promise<FieldErrors> {
  const found = await deps.prisma.portalRole.count({ where: { id: { in: ids }, inactive: false } });
  return found === new Set(ids).size ? {} : { portalRoleIds: ['nonexistent'] };
}

/**
 * Sends one save of registration `id`. `checks` (the pending registration first) run only when the save is not
 * the retry of an attempt already made, which is answered its outcome instead (issue 21 case 5).
 */
async function send(
  deps: Deps,
  req: FastifyRequest,
  actor: AuthContext,
  id: number,
  save: {
    status: RegistrationStatus;
    versionno: number;
    reviewerComments: string;
    sysaidTicket: string;
  },
  attemptKey: string | undefined,
  checks: (row: RegistrationRow) => Promise<RegistrationReviewPayload | undefined> = async () => undefined,
): Promise<Registration | ReviewProcessing> {
  return sendReview(
    deps,
    {
      def: registrationDefinition,
      requestId: id,
      attemptKey,
      statusKey: STATUS_KEY,
      actor,
      req,
      save: { ...save, requestStatus: save.status },
      checks: async () => checks(await pending(deps, id)),
    },
    async () =>
      withRequestSignature(
        deps,
        'Registration',
        registrationView(await deps.prisma.registration.findUniqueOrThrow({ where: { id } }), deps),
      ),
  );
}

/** PUT /rest/secure/user_registration/{id}: comments, ticket number and the chosen portal roles. */
export async function updateRegistration(
  deps: Deps,
  req: FastifyRequest,
  actor: AuthContext,
  id: number,
  body: RegistrationUpdateBody,
) {
  if (body.id !== id) throw unprocessable({ id: ['invalid'] });
  return send(deps, req, actor, id, { status: 'PENDING', ...body }, body.attemptKey, async () => {
    const roles = await unknownPortalRoles(deps, body.portalRoleIds);
    if (Object.keys(roles).length) throw unprocessable(roles);
    return { portalRoleIds: body.portalRoleIds };
  });
}

/**
 * DELETE /rest/secure/user_registration/{id}[?versionno=&attemptKey=]: the registration leaves every list
 * (DELETED), no mail. Without `versionno` the stored version is deleted (older clients; no retry can join it).
 */
export async function deleteRegistration(
  deps: Deps,
  req: FastifyRequest,
  actor: AuthContext,
  id: number,
  query: RegistrationDeleteQuery,
) {
  const row = await deps.prisma.registration.findUnique({ where: { id } });
  if (!row) throw notFound(REGISTRATION_MESSAGES.loadUserFailed);
  // A delete writes neither comments nor ticket: the save keeps the stored ones (the retry reads the same).
  return send(
    deps,
    req,
    actor,
    id,
    {
      status: 'DELETED',
      versionno: query.versionno ?? row.versionno,
      reviewerComments: row.reviewerComments,
      sysaidTicket: row.sysaidTicket,
    },
    query.attemptKey,
  );
}

/** PUT /rest/secure/user_registration_action/deny: DENIED, read-only afterwards; the person is told by mail. */
export async function denyRegistration(
  deps: Deps,
  req: FastifyRequest,
  actor: AuthContext,
  body: RegistrationActionBody,
) {
  const form = body.registrationForm;
  return send(deps, req, actor, form.id, { status: 'DENIED', ...form }, body.attemptKey);
}

/**
 * PUT /rest/secure/user_registration_action/approve ('Create User'): the spec's refusals first, then the
 * directory and the portal's own uniqueness checks, then the approval (directory entry, user, mail).
 */
export async function approveRegistration(
  deps: Deps,
  req: FastifyRequest,
  actor: AuthContext,
  body: RegistrationActionBody,
  ignoreValidationWarnings: boolean,
) {
  const form = body.registrationForm;
  return send(deps, req, actor, form.id, { status: 'APPROVED', ...form }, body.attemptKey, (row) =>
    approvalPayload(deps, body, row, ignoreValidationWarnings),
  );
}

/**
 * The approval's checks against the stored rows and the directory (001 §4 Approval warning, §8): 422 field
 * errors, 503 when the directory cannot be asked. @returns the approval's payload.
 */
async function approvalPayload(
  deps: Deps,
  body: RegistrationActionBody,
  row: RegistrationRow,
  ignoreValidationWarnings: boolean,
): Promise<RegistrationReviewPayload> {
  const existing = body.useExistingAuthAccount ? (body.existingAuthAccountUuid ?? null) : null;
  const choice = {
    portalRoleIds: body.portalRoleIds,
    accountType: body.accountType,
    existingAuthAccountUuid: existing,
    ignoreValidationWarnings,
  };
  const problems = approvalProblems(choice, row.email, deps.cfg.ORGANISATION_EMAIL_DOMAINS);
  if (problems) throw unprocessable(problems.fieldErrors, problems.globalErrors);
  const fieldErrors: FieldErrors = { ...(await unknownPortalRoles(deps, body.portalRoleIds)) };
  const add = (key: string, reason: string) => (fieldErrors[key] ??= []).push(reason);
  let username = body.username;
  try {
    if (existing) {
      const entry = await findMatchByUuid(deps.directory, existing);
      if (!entry) add('existingAuthAccountUuid', 'existsInLdap');
      else if (await deps.prisma.portalUser.findUnique({ where: { uuid: existing } })) {
        add('existingAuthAccountUuid', 'unique');
      } else username = entry.username;
    } else if (!username) add('username', 'required');
    else if (!USERNAME.test(username)) add('username', 'invalid');
    else if (await usernameTaken(deps, username, row)) add('username', 'doesntExistInLdap');
  } catch {
    throw unavailable(REGISTRATION_MESSAGES.approveIssue);
  }
  if (username && (await deps.prisma.portalUser.findUnique({ where: { username } })))
    add('username', 'doesntExistInDb');
  const email = { equals: row.email, mode: 'insensitive' as const };
  if (await deps.prisma.portalUser.findFirst({ where: { email } })) {
    add(APPROVAL_WARNING_KEY, 'Email address already exists in database');
  }
  if (Object.keys(fieldErrors).length) throw unprocessable(fieldErrors);
  return {
    portalRoleIds: body.portalRoleIds,
    approval: {
      username,
      gecos: body.gecos,
      accountType: body.accountType,
      existingAuthAccountUuid: existing,
      ignoreValidationWarnings,
    },
    organisationEmailDomains: deps.cfg.ORGANISATION_EMAIL_DOMAINS,
  };
}
