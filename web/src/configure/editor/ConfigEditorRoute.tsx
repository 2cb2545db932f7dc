import { Fragment, type ReactNode } from 'react';
import { useParams } from 'react-router-dom';
import { LoadError } from '../../shared/ErrorAlert';
import { PageLoader } from '../../shared/PageLoader';
import { usePageTitle } from '../../shared/usePageTitle';
import { useConfigRecord } from '../api/getConfigRecord';
import type { ConfigRecord } from '../api/resources';
import type { ConfigKind } from './kind';

/** A route's `:id`: null for 'new' (add mode), -1 for anything that is not a positive integer. */
export function parseId(raw: string | undefined): number | null {
  if (!raw || raw === 'new') return null;
  const id = Number(raw);
  return Number.isInteger(id) && id > 0 ? id : -1;
}

/**
 * The route of a configuration editor (001 §2.12): `.../new` is add mode, `.../{id}` loads the record first
 * (the kind's 'Problem loading ...' text with a retry when that fails, the same text without one for an id
 * that cannot exist). It renders `children` with the record (null when adding), keyed by it so a different
 * record starts a fresh form.
 */
export function ConfigEditorRoute<R extends ConfigRecord, V, Refs>({
  kind,
  children,
}: {
  kind: ConfigKind<R, V, Refs>;
  children: (record: R | null) => ReactNode;
}) {
  const id = parseId(useParams().id);
  const record = useConfigRecord(kind.resource, id !== null && id > 0 ? id : null);
  usePageTitle(`${id === null ? 'Add' : 'Edit'} ${kind.noun}`);
  if (id === -1 || record.isError) {
    return <LoadError text={kind.texts.load} onRetry={id === -1 ? undefined : () => void record.refetch()} />;
  }
  if (id !== null && !record.data) return <PageLoader label={`Loading the ${kind.noun.toLowerCase()}`} />;
  return <Fragment key={record.data?.id ?? 'new'}>{children(record.data ?? null)}</Fragment>;
}
