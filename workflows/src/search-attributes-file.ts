/**
 * The generated list of search attributes the compose setup job registers
 * (deploy/temporal/search-attributes.txt), from the one declaration. Node-only: not workflow code.
 */
import path from 'node:path';
import { searchAttributeLines } from './search-attributes';

export const SEARCH_ATTRIBUTES_FILE = path.join(
  import.meta.dirname,
  '..',
  '..',
  'deploy',
  'temporal',
  'search-attributes.txt',
);

export function searchAttributesFileText(): string {
  return [
    '# Generated from workflows/src/search-attributes.ts by workflows/scripts/write-search-attributes.ts; do not edit.',
    ...searchAttributeLines(),
    '',
  ].join('\n');
}
