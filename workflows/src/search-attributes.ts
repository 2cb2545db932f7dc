/**
 * The custom search attributes of every request workflow, declared once (REQUEST-LIFECYCLE.md "The
 * shape"): set at start, RequestStatus upserted on every transition, so operations staff filter requests in
 * the Temporal Web UI. The local stack and the tests register them from `SEARCH_ATTRIBUTE_KEYS`; the compose
 * setup job reads `deploy/temporal/search-attributes.txt`, generated from `searchAttributeLines()` and
 * compared with it by a unit test.
 */
import { type SearchAttributeType, defineSearchAttributeKey } from '@temporalio/common';
import type { SearchAttributeKey } from '@temporalio/common/lib/search-attributes';

export const RequestTypeKey = defineSearchAttributeKey('RequestType', 'KEYWORD');
export const RequestStatusKey = defineSearchAttributeKey('RequestStatus', 'KEYWORD');
export const SubjectUserIdKey = defineSearchAttributeKey('SubjectUserId', 'INT');
export const RequesterUserIdKey = defineSearchAttributeKey('RequesterUserId', 'INT');
export const ProxyBatchIdKey = defineSearchAttributeKey('ProxyBatchId', 'KEYWORD');
/** Issue 25: the access review campaign a workflow runs (`access-review-<id>`). */
export const AccessReviewIdKey = defineSearchAttributeKey('AccessReviewId', 'KEYWORD');
/** Issue 41: the system a provisioning workflow or reconciliation serves (SystemAccess id). */
export const ProvisioningSystemKey = defineSearchAttributeKey('ProvisioningSystem', 'KEYWORD');
/**
 * The open approval stage of an access-change request and who may decide it, `<stage>:<group>` (e.g.
 * `1:LAO_STAFF`; docs/decisions.md "Approval policies"); removed when no stage is open.
 */
export const ApprovalStageKey = defineSearchAttributeKey('ApprovalStage', 'KEYWORD');

/** Every custom search attribute key, in registration order. */
export const SEARCH_ATTRIBUTE_KEYS: readonly SearchAttributeKey<SearchAttributeType>[] = [
  RequestTypeKey,
  RequestStatusKey,
  SubjectUserIdKey,
  RequesterUserIdKey,
  ProxyBatchIdKey,
  AccessReviewIdKey,
  ProvisioningSystemKey,
  ApprovalStageKey,
];

/** The CLI's spelling of a search attribute type (`temporal operator search-attribute create --type`). */
const CLI_TYPES: Record<SearchAttributeType, string> = {
  TEXT: 'Text',
  KEYWORD: 'Keyword',
  INT: 'Int',
  DOUBLE: 'Double',
  BOOL: 'Bool',
  DATETIME: 'Datetime',
  KEYWORD_LIST: 'KeywordList',
};

/** `Name=Type` pairs, as `temporal server start-dev --search-attribute` and the compose setup job take them. */
export function searchAttributeLines(): string[] {
  return SEARCH_ATTRIBUTE_KEYS.map((k) => `${k.name}=${CLI_TYPES[k.type]}`);
}
