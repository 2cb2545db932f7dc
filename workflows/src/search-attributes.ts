/**
 * Custom search attributes every request workflow upserts on each transition, so operations staff can
 * filter requests in the Temporal Web UI (ARCHITECTURE.md "Messages, not ad-hoc writes"). The dev server
 * registers them at start (`--search-attribute RequestStatus=Keyword ...`).
 */
import { defineSearchAttributeKey } from '@temporalio/common';

export const RequestTypeKey = defineSearchAttributeKey('RequestType', 'KEYWORD');
export const RequestStatusKey = defineSearchAttributeKey('RequestStatus', 'KEYWORD');
export const SubjectUserIdKey = defineSearchAttributeKey('SubjectUserId', 'INT');
export const RequesterUserIdKey = defineSearchAttributeKey('RequesterUserId', 'INT');
export const ProxyBatchIdKey = defineSearchAttributeKey('ProxyBatchId', 'KEYWORD');

/** Names and Temporal types, for servers that must register them (`temporal operator search-attribute create`). */
export const SEARCH_ATTRIBUTES = [
  ['RequestType', 'Keyword'],
  ['RequestStatus', 'Keyword'],
  ['SubjectUserId', 'Int'],
  ['RequesterUserId', 'Int'],
  ['ProxyBatchId', 'Keyword'],
] as const;
