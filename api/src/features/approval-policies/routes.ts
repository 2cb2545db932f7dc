/**
 * Configure → Approval policies and a study's approvers (docs/decisions.md "Approval policies"; docs/api.md),
 * one plugin under /rest/secure/system_mgmt: the policies (GET, POST, PUT {id}, DELETE {id}), the studies
 * with their ids, and a study's named approvers (GET, PUT). Reading needs READ_USERS like the rest of the
 * configuration; every change ADMIN, audited in its transaction.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  ApprovalPolicyBodySchema,
  ApprovalPolicySchema,
  ConfigStudySchema,
  IdParamsSchema,
  StudyApproverSchema,
  StudyApproversBodySchema,
} from '@portal/contract';
import { requireAuth } from '../../auth/guard';
import type { Deps } from '../../deps';
import { EmptyObjectSchema, MessageSchema, SECURE_ERRORS } from '../../http/route-schemas';
import { createApprovalPolicy, deleteApprovalPolicy, listApprovalPolicies, updateApprovalPolicy } from './policies';
import { listConfigStudies, setStudyApprovers, studyApprovers } from './study-approvers';

const POLICIES = '/rest/secure/system_mgmt/approval_policies';
const APPROVERS = '/rest/secure/system_mgmt/study/:id/approvers';

/** Reading: READ_USERS, as the configuration. */
const READ = { permission: 'READ_USERS' } as const;
/** Changing: ADMIN; destructive (the route walker runs it on throwaway records only). */
const CHANGE = { permission: 'ADMIN', destructive: true } as const;

/** The answers of a call: `ok` (200), 304 (nothing changed), 404 (unknown id) and the errors. */
const answers = (ok: z.ZodType) => ({ 200: ok, 304: z.null(), 404: MessageSchema, ...SECURE_ERRORS });

const actorOf = (auth: { userId: number; username: string }) => ({ userId: auth.userId, username: auth.username });

export const approvalPolicyRoutes: FastifyPluginAsyncZod<{ deps: Deps }> = async (app, { deps }) => {
  const { prisma } = deps;

  app.get(POLICIES, { config: READ, schema: { response: answers(z.array(ApprovalPolicySchema)) } }, async () =>
    listApprovalPolicies(prisma),
  );

  app.post(
    POLICIES,
    { config: CHANGE, schema: { body: ApprovalPolicyBodySchema, response: answers(ApprovalPolicySchema) } },
    async (req) => createApprovalPolicy(prisma, actorOf(requireAuth(req)), req.body),
  );

  app.put(
    `${POLICIES}/:id`,
    {
      config: CHANGE,
      schema: { params: IdParamsSchema, body: ApprovalPolicyBodySchema, response: answers(ApprovalPolicySchema) },
    },
    async (req) => updateApprovalPolicy(prisma, actorOf(requireAuth(req)), req.params.id, req.body),
  );

  // Answers `{}` as every DELETE of the API does (provisioning's): the route catalogue wants a 200 answer.
  app.delete(
    `${POLICIES}/:id`,
    { config: CHANGE, schema: { params: IdParamsSchema, response: answers(EmptyObjectSchema) } },
    async (req) => {
      await deleteApprovalPolicy(prisma, actorOf(requireAuth(req)), req.params.id);
      return {};
    },
  );

  app.get(
    '/rest/secure/system_mgmt/studies',
    { config: READ, schema: { response: answers(z.array(ConfigStudySchema)) } },
    async () => listConfigStudies(prisma),
  );

  app.get(
    APPROVERS,
    { config: READ, schema: { params: IdParamsSchema, response: answers(z.array(StudyApproverSchema)) } },
    async (req) => studyApprovers(prisma, req.params.id),
  );

  app.put(
    APPROVERS,
    {
      config: CHANGE,
      schema: {
        params: IdParamsSchema,
        body: StudyApproversBodySchema,
        response: answers(z.array(StudyApproverSchema)),
      },
    },
    async (req) => setStudyApprovers(prisma, actorOf(requireAuth(req)), req.params.id, req.body.userIds),
  );
};
