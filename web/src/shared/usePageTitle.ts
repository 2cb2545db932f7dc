import { useEffect } from 'react';
import { SITE_TITLE } from '../lib/config';

/** Sets the document title to '{page title} | {site title}' (000 §2 Layouts). */
export function usePageTitle(pageTitle: string | undefined): void {
  useEffect(() => {
    document.title = pageTitle ? `${pageTitle} | ${SITE_TITLE}` : SITE_TITLE;
  }, [pageTitle]);
}
