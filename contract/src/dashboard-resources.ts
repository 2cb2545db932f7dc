/**
 * The dashboard's resources (000 §6 "portal roles also control dashboard visibility", §9 "Resource categories
 * without category headings"; 001 §6, §8; issue 23): resource categories (a tree) and dashboard items tied to
 * portal roles, of three kinds: LINK (a URL), DOWNLOAD (an uploaded file) and ELEARNING (an uploaded .zip
 * package served unpacked). ADMIN edits them under /rest/secure/system_mgmt; a signed-in person reads the items
 * tied to one of their portal roles (ADMIN all). Field errors use the spec's keys (000 §5): `required`, `size`,
 * `invalid`, `protocolRequired`, `invalidDomain`, `notImage`, `noIndexOrStoryFile`, `notCompressedFile`.
 */
import { z } from 'zod';
import { BodyIdSchema } from './ids';
import { storableText, textSchema } from './text';

/** The three kinds of a dashboard item. */
export const DASHBOARD_ITEM_KINDS = ['LINK', 'DOWNLOAD', 'ELEARNING'] as const;
export type DashboardItemKind = (typeof DASHBOARD_ITEM_KINDS)[number];

/** Field limits (the database columns). */
export const DASHBOARD_RESOURCE_LIMITS = {
  categoryName: 128,
  title: 256,
  description: 2048,
  url: 2048,
  fileName: 255,
  portalRoleIds: 200,
  order: 32_767,
} as const;

/**
 * The categories the first migration creates, shown on the dashboard without a heading and first, in this
 * order (000 §9). They can be renamed neither nor deleted; their order and active flag can be changed.
 */
export const HEADLESS_RESOURCE_CATEGORIES = ['Links', 'Downloads', 'eLearnings'] as const;

/** Texts of the resources: the spec's (001 §8) word for word, the rest written in its style. */
export const DASHBOARD_RESOURCE_MESSAGES = {
  /** 001 §8. */
  activeChildren: 'Resource category has active child category(ies)',
  loadCategories: 'Problem loading resource categories.',
  loadItems: 'Problem loading dashboard items.',
  loadItem: 'Problem loading dashboard item.',
  loadCategory: 'Problem loading resource category.',
  saveCategoryFailed: 'Unable to save resource category due to one or more errors.',
  saveItemFailed: 'Unable to save dashboard item due to one or more errors.',
  deleteCategoryFailed: 'Unable to delete resource category.',
  deleteItemFailed: 'Unable to delete dashboard item.',
  fixedCategory: 'This category is shown without a heading: it cannot be renamed or deleted.',
  categoryNotEmpty: 'Resource category still holds dashboard items.',
  hasChildren: 'Resource category still has child categories.',
  uploadParts: 'The upload has too many or unexpected parts.',
  uploadUnreadable: 'The upload could not be read.',
  parentCycle: 'A category cannot be placed under itself or one of its own child categories.',
  /** Field errors that are full sentences (shown as they are, 000 §5 "unknown keys shown raw"). */
  tooLarge: (limit: string) => `The file is larger than the configured limit of ${limit}.`,
  unsafeEntry: 'The package has an entry that is not allowed (an absolute path, "..", a link or an encrypted entry).',
  sameNameEntries:
    'The package has two entries whose names differ only in letter case or accents (for example story.html and Story.html).',
  tooManyEntries: (max: number) => `The package has more than ${max.toLocaleString('en-US')} files.`,
  unpackedTooLarge: (limit: string) => `The package unpacks to more than the configured limit of ${limit}.`,
  ratioTooHigh: 'The package compresses too well to be genuine (a possible zip bomb).',
  saved: (title: string) => `${title} saved`,
  deleted: 'Deleted',
} as const;

/** A size in bytes as B, KB, MB, GB or TB, base 1024, one decimal above B (000 §9). */
export function formatFileSize(bytes: number): string {
  const units = ['B', 'KB', 'MB', 'GB', 'TB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return unit === 0 ? `${bytes} B` : `${value.toFixed(1)} ${units[unit]}`;
}

/** How strict link URLs are: http is accepted only outside production (RESOURCE_LINK_ALLOW_HTTP). */
export interface LinkUrlRules {
  allowHttp: boolean;
}

/**
 * What is wrong with a link's URL, as a 000 §5 key, or null when it is acceptable: `size` over 2048 characters;
 * `protocolRequired` with no scheme or another than https (and http when allowed), e.g. 'www.example.org',
 * 'ftp://…', 'javascript:…'; `invalidDomain` when the host has no top-level domain ('https://intranet',
 * an IP address); `invalid` for anything else that is not an absolute URL (white space, user information).
 */
export function linkUrlProblem(
  value: string,
  rules: LinkUrlRules,
): 'size' | 'invalid' | 'protocolRequired' | 'invalidDomain' | null {
  if (value.length > DASHBOARD_RESOURCE_LIMITS.url) return 'size';
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(value)?.[1]?.toLowerCase();
  if (!scheme || !(scheme === 'https' || (scheme === 'http' && rules.allowHttp))) return 'protocolRequired';
  if (!/^https?:\/\//i.test(value) || /\s/.test(value)) return 'invalid';
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return 'invalid';
  }
  if (url.username || url.password) return 'invalid';
  const labels = url.hostname.replace(/\.$/, '').split('.');
  const tld = labels.at(-1) ?? '';
  if (labels.length < 2 || !/^([a-z]{2,63}|xn--[a-z0-9-]{2,59})$/i.test(tld)) return 'invalidDomain';
  return null;
}

const order = z.number().int().min(0).max(DASHBOARD_RESOURCE_LIMITS.order);

/** A resource category as the API answers it. `headless`: one of the three fixed categories (000 §9). */
export const ResourceCategorySchema = z.object({
  id: z.number().int(),
  name: z.string(),
  parentId: z.number().int().nullable(),
  order: z.number().int(),
  active: z.boolean(),
  headless: z.boolean(),
});
export type ResourceCategory = z.infer<typeof ResourceCategorySchema>;

/** POST / PUT body of a category. A new category is active unless said otherwise. */
export const ResourceCategoryBodySchema = z.object({
  name: textSchema(DASHBOARD_RESOURCE_LIMITS.categoryName, { min: 1 }),
  parentId: BodyIdSchema.nullable().default(null),
  order: order.default(0),
  active: z.boolean().default(true),
});
export type ResourceCategoryBody = z.infer<typeof ResourceCategoryBodySchema>;

/** An uploaded file's metadata: the name it was uploaded with, its size in bytes and its stored content type. */
export const StoredFileInfoSchema = z.object({
  name: z.string(),
  size: z.number().int(),
  contentType: z.string(),
});
export type StoredFileInfo = z.infer<typeof StoredFileInfoSchema>;

/**
 * A dashboard item as the API answers it. `url` is a LINK's URL; `file` a DOWNLOAD's file or an ELEARNING's
 * package (the .zip as uploaded); `entryPoint` the package's index.html or story.html; `openUrl` what the
 * card opens in a new tab (the link, the download's path, or the package's entry point on the e-learning
 * origin, a signed path valid for some hours); `imageUrl` the card's picture when it has one.
 */
export const DashboardItemSchema = z.object({
  id: z.number().int(),
  kind: z.enum(DASHBOARD_ITEM_KINDS),
  title: z.string(),
  description: z.string(),
  categoryId: z.number().int(),
  order: z.number().int(),
  active: z.boolean(),
  portalRoleIds: z.array(z.number().int()),
  url: z.string().nullable(),
  file: StoredFileInfoSchema.nullable(),
  entryPoint: z.string().nullable(),
  hasImage: z.boolean(),
  imageUrl: z.string().nullable(),
  openUrl: z.string(),
  updatedAt: z.string(),
});
export type DashboardItem = z.infer<typeof DashboardItemSchema>;

const linkUrl = (rules: LinkUrlRules) =>
  storableText.trim().superRefine((value, ctx) => {
    const problem = linkUrlProblem(value, rules);
    if (problem) ctx.addIssue({ code: 'custom', message: problem, input: value });
  });

/**
 * The `item` part (JSON) of the multipart body of POST / PUT .../dashboard_items under `rules` (the API builds
 * it from its configuration; `DashboardItemBodySchema` is the lenient one the browser checks with). The file
 * parts are `file` (DOWNLOAD: any file; ELEARNING: a .zip) and `image` (optional picture); on update an absent
 * part keeps the stored file, and `removeImage` drops the picture. A LINK needs `url` (blank: `required`).
 */
export function dashboardItemBodySchema(rules: LinkUrlRules) {
  return z
    .object({
      kind: z.enum(DASHBOARD_ITEM_KINDS),
      title: textSchema(DASHBOARD_RESOURCE_LIMITS.title, { min: 1 }),
      description: textSchema(DASHBOARD_RESOURCE_LIMITS.description).default(''),
      categoryId: BodyIdSchema,
      order: order.default(0),
      active: z.boolean().default(true),
      portalRoleIds: z
        .array(BodyIdSchema)
        .superRefine((ids, ctx) => {
          if (ids.length === 0) ctx.addIssue({ code: 'custom', message: 'required', input: ids });
          if (ids.length > DASHBOARD_RESOURCE_LIMITS.portalRoleIds)
            ctx.addIssue({ code: 'custom', message: 'size', input: ids });
        })
        .transform((ids) => [...new Set(ids)].sort((a, b) => a - b)),
      url: z.preprocess((v) => (v === undefined || v === null ? '' : v), z.string()).default(''),
      removeImage: z.boolean().default(false),
    })
    .superRefine((body, ctx) => {
      if (body.kind !== 'LINK') return;
      const parsed = linkUrl(rules).safeParse(body.url);
      if (!body.url.trim()) ctx.addIssue({ code: 'custom', message: 'required', path: ['url'], input: body.url });
      else if (!parsed.success)
        for (const issue of parsed.error.issues)
          ctx.addIssue({ code: 'custom', message: issue.message, path: ['url'], input: body.url });
    })
    .transform((body) => ({ ...body, url: body.kind === 'LINK' ? body.url.trim() : null }));
}

/** The body with http allowed (the browser's check; the API applies its configured rules). */
export const DashboardItemBodySchema = dashboardItemBodySchema({ allowHttp: true });
export type DashboardItemBody = z.infer<typeof DashboardItemBodySchema>;

/** Names of the multipart parts of an item's save. */
export const DASHBOARD_ITEM_PARTS = { item: 'item', file: 'file', image: 'image' } as const;

/**
 * GET /rest/secure/dashboard/resources: what the signed-in person sees on the dashboard: active categories
 * holding at least one of their items (with their ancestors), and their active items, each list in display
 * order (headless categories first, then by order and name).
 */
export const DashboardResourcesSchema = z.object({
  categories: z.array(ResourceCategorySchema),
  items: z.array(DashboardItemSchema),
});
export type DashboardResources = z.infer<typeof DashboardResourcesSchema>;

/** GET .../dashboard_items/limits: the upload limits configured (bytes, entries, ratio). */
export const DashboardUploadLimitsSchema = z.object({
  maxFileBytes: z.number().int(),
  maxImageBytes: z.number().int(),
  maxPackageBytes: z.number().int(),
  maxPackageEntries: z.number().int(),
  maxUnpackedBytes: z.number().int(),
  maxCompressionRatio: z.number(),
});
export type DashboardUploadLimits = z.infer<typeof DashboardUploadLimitsSchema>;

/** Audit entity types and actions of the resources. */
export const DASHBOARD_RESOURCE_AUDIT = {
  category: 'ResourceCategory',
  item: 'DashboardItem',
  actions: ['CREATED', 'UPDATED', 'ACTIVATED', 'DEACTIVATED', 'DELETED'],
} as const;

const CONFIG = '/rest/secure/system_mgmt';

/**
 * The paths the browser calls (docs/api.md "Dashboard resources"). `:id` segments are filled with
 * `resourcePath`. Item saves are multipart/form-data: an `item` part (JSON, DashboardItemBodySchema) and
 * optional `file` and `image` parts.
 */
export const DASHBOARD_RESOURCE_PATHS = {
  /** GET (any signed-in user): DashboardResources. */
  dashboard: '/rest/secure/dashboard/resources',
  /** GET (a person who sees the item): the DOWNLOAD's file, as an attachment. */
  itemFile: '/rest/secure/dashboard/resources/items/:id/file',
  /** GET (a person who sees the item, or ADMIN): the item's picture. */
  itemImage: '/rest/secure/dashboard/resources/items/:id/image',
  /** GET (ADMIN): every category; POST: create one. */
  categories: `${CONFIG}/resource_categories`,
  /** GET / PUT / DELETE (ADMIN) one category. */
  category: `${CONFIG}/resource_categories/:id`,
  /** PUT (ADMIN) activate or deactivate one category. */
  categoryToggle: `${CONFIG}/resource_categories/:action/:id`,
  /** GET (ADMIN): every item; POST (multipart): create one. */
  items: `${CONFIG}/dashboard_items`,
  /** GET / PUT (multipart) / DELETE (ADMIN) one item. */
  item: `${CONFIG}/dashboard_items/:id`,
  /** PUT (ADMIN) activate or deactivate one item. */
  itemToggle: `${CONFIG}/dashboard_items/:action/:id`,
  /** GET (ADMIN): the upload limits configured. */
  limits: `${CONFIG}/dashboard_items/limits`,
} as const;

/** A path of DASHBOARD_RESOURCE_PATHS with its `:name` segments filled in. */
export function resourcePath(path: string, params: Record<string, string | number>): string {
  return path.replace(/:([a-z]+)/gi, (_, name: string) => encodeURIComponent(String(params[name] ?? `:${name}`)));
}
