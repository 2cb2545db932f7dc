import {
  DASHBOARD_RESOURCE_MESSAGES as M,
  formatFileSize,
  linkUrlProblem,
  translateFieldErrors,
  type DashboardItem,
  type DashboardItemKind,
  type DashboardUploadLimits,
  type ResourceCategory,
} from '@portal/contract';
import type { FieldLabels } from '../errors';
import type { SaveDashboardItemInput } from './api/saveDashboardItem';

/** The item editor's values: ids as strings (select and checkbox values), the chosen files. */
export interface ItemValues {
  kind: DashboardItemKind;
  title: string;
  description: string;
  categoryId: string | null;
  order: number | string;
  portalRoleIds: string[];
  url: string;
  /** A new file (DOWNLOAD) or package (ELEARNING); on an existing item, its replacement. */
  file: File | null;
  image: File | null;
  removeImage: boolean;
}

/** The file field's label by kind: a download's file, an e-learning's package. */
export const fileLabel = (kind: DashboardItemKind) => (kind === 'ELEARNING' ? 'Package' : 'File');

/** Server field names (issue 23, docs/api.md) and how the editor names them (000 §5 '{label} {reason}'). */
export function itemLabels(kind: DashboardItemKind): FieldLabels {
  return {
    kind: { label: 'Kind' },
    title: { label: 'Title' },
    description: { label: 'Description' },
    categoryId: { label: 'Category' },
    order: { label: 'Order' },
    portalRoleIds: { label: 'Portal Roles', plural: true },
    url: { label: 'URL' },
    file: { label: fileLabel(kind) },
    image: { label: 'Picture' },
    removeImage: { label: 'Picture', field: 'image' },
  };
}

/** The headless category of each kind ('Links', 'Downloads', 'eLearnings', 000 §9), where a new item starts. */
export function headlessCategoryIds(categories: readonly ResourceCategory[]): Record<DashboardItemKind, number | null> {
  const id = (name: string) => categories.find((c) => c.headless && c.name === name)?.id ?? null;
  return { LINK: id('Links'), DOWNLOAD: id('Downloads'), ELEARNING: id('eLearnings') };
}

export function initialItemValues(item: DashboardItem | null, categoryId: number | null): ItemValues {
  return {
    kind: item?.kind ?? 'LINK',
    title: item?.title ?? '',
    description: item?.description ?? '',
    categoryId: item ? String(item.categoryId) : categoryId === null ? null : String(categoryId),
    order: item?.order ?? 0,
    portalRoleIds: (item?.portalRoleIds ?? []).map(String),
    url: item?.url ?? '',
    file: null,
    image: null,
    removeImage: false,
  };
}

const isZipName = (name: string) => /\.zip$/i.test(name);

/**
 * The browser's checks before the upload (the server checks again, by content): the required fields, the link's
 * URL by the contract's rules, a file for a new download or package, a .zip for a package, a picture that is an
 * image, and the configured size limits. Texts as the server's keys read (000 §5).
 */
export function validateItem(
  values: ItemValues,
  item: DashboardItem | null,
  limits: DashboardUploadLimits | undefined,
): Record<string, string | null> {
  const labels = itemLabels(values.kind);
  const say = (field: string, key: string) => translateFieldErrors(labels[field]!.label, [key], labels[field]!.plural);
  const errors: Record<string, string | null> = {};
  if (!values.title.trim()) errors.title = say('title', 'required');
  if (!values.categoryId) errors.categoryId = say('categoryId', 'required');
  if (!values.portalRoleIds.length) errors.portalRoleIds = say('portalRoleIds', 'required');
  if (typeof values.order !== 'number' || !Number.isInteger(values.order) || values.order < 0)
    errors.order = say('order', 'integer');
  if (values.kind === 'LINK') {
    const url = values.url.trim();
    const problem = url ? linkUrlProblem(url, { allowHttp: true }) : 'required';
    if (problem) errors.url = say('url', problem);
  } else {
    const needsFile = !item || item.kind !== values.kind;
    if (!values.file && needsFile) errors.file = say('file', 'required');
    else if (values.file && values.kind === 'ELEARNING' && !isZipName(values.file.name))
      errors.file = say('file', 'notCompressedFile');
    const max = values.kind === 'ELEARNING' ? limits?.maxPackageBytes : limits?.maxFileBytes;
    if (values.file && max && values.file.size > max) errors.file = M.tooLarge(formatFileSize(max));
  }
  if (values.image) {
    if (!values.image.type.startsWith('image/')) errors.image = say('image', 'notImage');
    else if (limits && values.image.size > limits.maxImageBytes)
      errors.image = M.tooLarge(formatFileSize(limits.maxImageBytes));
  }
  return errors;
}

/** The save call's parts from the editor's values. */
export function itemSaveInput(values: ItemValues, item: DashboardItem | null): SaveDashboardItemInput {
  return {
    id: item?.id ?? null,
    item: {
      kind: values.kind,
      title: values.title.trim(),
      description: values.description.trim(),
      categoryId: Number(values.categoryId),
      order: Number(values.order),
      active: item?.active ?? true,
      portalRoleIds: values.portalRoleIds.map(Number),
      url: values.kind === 'LINK' ? values.url.trim() : '',
      removeImage: values.removeImage && !values.image,
    },
    file: values.kind === 'LINK' ? null : values.file,
    image: values.image,
  };
}
