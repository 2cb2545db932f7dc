import { Text } from '@mantine/core';
import { parseProxyComment, type AccessModRequest } from '@portal/contract';
import { useProxyCommentMarkers } from './portalSettings';
import { CondensedText } from './TableCells';

/** What is shown of an access request's requester comment: the text and, when filed by proxy, the proxy's name. */
export interface ShownRequesterComment {
  comment: string;
  /** The proxy who filed the request (from the comment marker), null for a request of one's own. */
  proxyName: string | null;
}

/**
 * Reads an access request's requester comment for display (000 §3 Proxy access-change request fields): a
 * proxy-filed request's comment starts with one of the configured `markers` (`[Proxy request] proxy={...}
 * subject={...}`; useProxyCommentMarkers), which is shown as the proxy's own comment and the proxy's name
 * instead of the raw marker. Only a request marked as a proxy request is read this way, so a comment typed to
 * look like the marker stays as typed. While the markers load (null) a proxy request's comment is empty rather
 * than shown with its raw marker for a moment.
 */
export function shownRequesterComment(
  request: Pick<AccessModRequest, 'requesterComments' | 'isProxyRequest'>,
  markers: readonly string[] | null,
): ShownRequesterComment {
  if (request.isProxyRequest && markers === null) return { comment: '', proxyName: null };
  const parsed = request.isProxyRequest ? parseProxyComment(request.requesterComments ?? '', markers ?? []) : null;
  if (!parsed) return { comment: request.requesterComments, proxyName: null };
  return { comment: parsed.comment, proxyName: parsed.proxy.name };
}

/** The note naming the proxy who filed a request, beside its comment. */
export const proxyNote = (proxyName: string) => `Submitted by proxy: ${proxyName}`;

/**
 * An access request's requester comment in a table cell: the (condensed) comment, under the note of who filed
 * it by proxy when a proxy did. Both are text in the cell, so screen readers and the table filter read them.
 */
export function RequesterCommentCell({
  request,
}: {
  request: Pick<AccessModRequest, 'requesterComments' | 'isProxyRequest'>;
}) {
  const { comment, proxyName } = shownRequesterComment(request, useProxyCommentMarkers(request.isProxyRequest));
  if (!proxyName) return <CondensedText text={comment} />;
  return (
    <div>
      <Text size="xs" c="dimmed">
        {proxyNote(proxyName)}
      </Text>
      <CondensedText text={comment} />
    </div>
  );
}
