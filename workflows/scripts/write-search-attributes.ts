/**
 * Writes deploy/temporal/search-attributes.txt from the one declaration (workflows/src/search-attributes.ts),
 * for the compose setup job. Run after changing the declaration: `npx tsx workflows/scripts/write-search-attributes.ts`.
 */
import fs from 'node:fs';
import path from 'node:path';
import { SEARCH_ATTRIBUTES_FILE, searchAttributesFileText } from '../src/search-attributes-file';

fs.writeFileSync(SEARCH_ATTRIBUTES_FILE, searchAttributesFileText());
console.log(`wrote ${path.relative(process.cwd(), SEARCH_ATTRIBUTES_FILE)}`);
