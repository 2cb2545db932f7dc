import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { SEARCH_ATTRIBUTES_FILE, searchAttributesFileText } from './search-attributes-file';
import { SEARCH_ATTRIBUTE_KEYS, searchAttributeLines } from './search-attributes';

describe('search attributes', () => {
  it('the compose setup job reads the list generated from the declaration', () => {
    // On failure: npx tsx workflows/scripts/write-search-attributes.ts
    expect(fs.readFileSync(SEARCH_ATTRIBUTES_FILE, 'utf8')).toBe(searchAttributesFileText());
  });

  it('lists every declared key once with its CLI type', () => {
    expect(searchAttributeLines()).toEqual([
      'RequestType=Keyword',
      'RequestStatus=Keyword',
      'SubjectUserId=Int',
      'RequesterUserId=Int',
      'ProxyBatchId=Keyword',
      'AccessReviewId=Keyword',
      'ProvisioningSystem=Keyword',
      'ApprovalStage=Keyword',
    ]);
    expect(new Set(SEARCH_ATTRIBUTE_KEYS.map((k) => k.name)).size).toBe(SEARCH_ATTRIBUTE_KEYS.length);
  });
});
