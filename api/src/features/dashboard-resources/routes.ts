/**
 * The dashboard's resources (000 §6, §9; 001 §6, §8; issue 23), one feature plugin (paths: contract
 * DASHBOARD_RESOURCE_PATHS; docs/api.md "Dashboard resources"):
 * - any signed-in user: GET /rest/secure/dashboard/resources, a visible item's file and picture;
 * - ADMIN: resource categories and dashboard items under /rest/secure/system_mgmt (item saves are multipart,
 *   @fastify/multipart with the configured limits, streamed to disk);
 * - without ELEARNING_ORIGIN, the e-learning packages under /elearning, sandboxed (elearning-serve.ts).
 */
import multipart from '@fastify/multipart';
import type { FastifyRouteSchemaDef } from 'fastify/types/schema';
import { type FastifyPluginAsyncZod, validatorCompiler } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  DASHBOARD_RESOURCE_PATHS as PATHS,
  DASHBOARD_ITEM_PARTS,
  DashboardItemSchema,
  DashboardResourcesSchema,
  DashboardUploadLimitsSchema,
  IdParamsSchema,
  ResourceCategoryBodySchema,
  ResourceCategorySchema,
  ToggleActionSchema,
  hasAllPermissions,
} from '@portal/contract';
import { requireAuth } from '../../auth/guard';
import type { Deps } from '../../deps';
import { EmptyObjectSchema, MessageSchema, NoBodySchema, SECURE_ERRORS } from '../../http/route-schemas';
import {
  createCategory,
  deleteCategory,
  getCategory,
  listCategories,
  toggleCategory,
  updateCategory,
} from './categories';
import { listenForResourceChanges } from './cache';
import { registerElearningRoute } from './elearning-serve';
import { type ItemDeps, deleteItem, getItem, listItems, saveItem, toggleItem } from './items';
import { itemLinks } from './links';
import { dashboardResources, sendItemFile, sendItemImage } from './serve';
import { multipartOptions, readItemUpload } from './uploads';

const ADMIN = { permission: 'ADMIN' } as const;
const CHANGE = { permission: 'ADMIN', destructive: true } as const;
const answers = (ok: z.ZodType) => ({ 200: ok, 304: z.null(), 404: MessageSchema, ...SECURE_ERRORS });
const ToggleParams = IdParamsSchema.extend({ action: ToggleActionSchema });
/**
 * Item saves are multipart/form-data, read part by part by readItemUpload (which validates the `item` part with
 * DashboardItemBodySchema and checks the files): this schema describes the parts for the OpenAPI document, and
 * MULTIPART_SAVE leaves the body out of the route's validation (the parts are streamed, never in `req.body`).
 */
const MultipartBody = z.object({
  [DASHBOARD_ITEM_PARTS.item]: z
    .string()
    .meta({ contentMediaType: 'application/json', description: 'the item as JSON (DashboardItemBody)' }),
  [DASHBOARD_ITEM_PARTS.file]: z
    .string()
    .optional()
    .meta({ format: 'binary', description: 'the DOWNLOAD file or the ELEARNING package (.zip)' }),
  [DASHBOARD_ITEM_PARTS.image]: z.string().optional().meta({ format: 'binary', description: "the card's picture" }),
});
/** The route options of an item save: a multipart body, validated by readItemUpload; the rest by zod. */
const MULTIPART_SAVE = {
  validatorCompiler: <S>(req: FastifyRouteSchemaDef<S>) =>
    req.httpPart === 'body'
      ? (data: unknown) => ({ value: data })
      : validatorCompiler(req as unknown as FastifyRouteSchemaDef<z.ZodType>),
} as const;
const MULTIPART = ['multipart/form-data'];
const FileAnswer = z.unknown().describe('the file’s bytes');

const actorOf = (auth: { userId: number; username: string }) => ({ userId: auth.userId, username: auth.username });

export const dashboardResourceRoutes: FastifyPluginAsyncZod<{ deps: Deps }> = async (app, { deps }) => {
  const { prisma, cfg } = deps;
  const links = itemLinks(cfg);
  const items: ItemDeps = { prisma, cfg, links, warn: (err, msg) => app.log.warn({ err }, msg) };
  const viewer = (auth: { userId: number; permissions: readonly string[] }) => ({
    userId: auth.userId,
    isAdmin: hasAllPermissions(auth.permissions, ['ADMIN']),
  });
  await app.register(multipart, multipartOptions(cfg));

  const caches = await listenForResourceChanges(app, cfg.DATABASE_URL);
  if (!cfg.ELEARNING_ORIGIN) registerElearningRoute(app, { prisma, links, caches, sandbox: true });

  app.get(PATHS.dashboard, { schema: { response: answers(DashboardResourcesSchema) } }, async (req) =>
    dashboardResources(prisma, links, viewer(requireAuth(req)), caches),
  );
  app.get(PATHS.itemFile, { schema: { params: IdParamsSchema, response: answers(FileAnswer) } }, async (req, reply) =>
    sendItemFile(prisma, reply, req.params.id, viewer(requireAuth(req))),
  );
  app.get(PATHS.itemImage, { schema: { params: IdParamsSchema, response: answers(FileAnswer) } }, async (req, reply) =>
    sendItemImage(prisma, reply, req.params.id, viewer(requireAuth(req))),
  );

  // --- categories (ADMIN) ---
  app.get(PATHS.categories, { config: ADMIN, schema: { response: answers(z.array(ResourceCategorySchema)) } }, () =>
    listCategories(prisma),
  );
  app.post(
    PATHS.categories,
    { config: CHANGE, schema: { body: ResourceCategoryBodySchema, response: answers(ResourceCategorySchema) } },
    async (req) => createCategory(prisma, actorOf(requireAuth(req)), req.body),
  );
  app.get(
    PATHS.category,
    { config: ADMIN, schema: { params: IdParamsSchema, response: answers(ResourceCategorySchema) } },
    async (req) => getCategory(prisma, req.params.id),
  );
  app.put(
    PATHS.category,
    {
      config: CHANGE,
      schema: { params: IdParamsSchema, body: ResourceCategoryBodySchema, response: answers(ResourceCategorySchema) },
    },
    async (req) => updateCategory(prisma, actorOf(requireAuth(req)), req.params.id, req.body),
  );
  app.put(
    PATHS.categoryToggle,
    { config: CHANGE, schema: { params: ToggleParams, body: NoBodySchema, response: answers(ResourceCategorySchema) } },
    async (req) => toggleCategory(prisma, actorOf(requireAuth(req)), req.params.id, req.params.action),
  );
  app.delete(
    PATHS.category,
    { config: CHANGE, schema: { params: IdParamsSchema, response: answers(EmptyObjectSchema) } },
    async (req) => {
      await deleteCategory(prisma, actorOf(requireAuth(req)), req.params.id);
      return {};
    },
  );

  // --- items (ADMIN) ---
  app.get(PATHS.items, { config: ADMIN, schema: { response: answers(z.array(DashboardItemSchema)) } }, () =>
    listItems(items),
  );
  app.get(PATHS.limits, { config: ADMIN, schema: { response: answers(DashboardUploadLimitsSchema) } }, async () => ({
    maxFileBytes: cfg.DASHBOARD_FILE_MAX_BYTES,
    maxImageBytes: cfg.DASHBOARD_IMAGE_MAX_BYTES,
    maxPackageBytes: cfg.ELEARNING_PACKAGE_MAX_BYTES,
    maxPackageEntries: cfg.ELEARNING_MAX_ENTRIES,
    maxUnpackedBytes: cfg.ELEARNING_MAX_UNPACKED_BYTES,
    maxCompressionRatio: cfg.ELEARNING_MAX_RATIO,
  }));
  app.post(
    PATHS.items,
    {
      ...MULTIPART_SAVE,
      config: CHANGE,
      schema: { consumes: MULTIPART, body: MultipartBody, response: answers(DashboardItemSchema) },
    },
    async (req) => saveItem(items, actorOf(requireAuth(req)), null, await readItemUpload(req, cfg)),
  );
  app.get(
    PATHS.item,
    { config: ADMIN, schema: { params: IdParamsSchema, response: answers(DashboardItemSchema) } },
    async (req) => getItem(items, req.params.id),
  );
  app.put(
    PATHS.item,
    {
      ...MULTIPART_SAVE,
      config: CHANGE,
      schema: {
        consumes: MULTIPART,
        params: IdParamsSchema,
        body: MultipartBody,
        response: answers(DashboardItemSchema),
      },
    },
    async (req) => saveItem(items, actorOf(requireAuth(req)), req.params.id, await readItemUpload(req, cfg)),
  );
  app.put(
    PATHS.itemToggle,
    { config: CHANGE, schema: { params: ToggleParams, body: NoBodySchema, response: answers(DashboardItemSchema) } },
    async (req) => toggleItem(items, actorOf(requireAuth(req)), req.params.id, req.params.action),
  );
  app.delete(
    PATHS.item,
    { config: CHANGE, schema: { params: IdParamsSchema, response: answers(EmptyObjectSchema) } },
    async (req) => {
      await deleteItem(items, actorOf(requireAuth(req)), req.params.id);
      return {};
    },
  );
};
