import { describe, expect, it } from 'vitest';
import { crlfRecords } from './report';

describe('crlfRecords', () => {
  it('ends records with CRLF and keeps line breaks inside quoted fields, across chunks', () => {
    const state = { quoted: false };
    const chunks = ['1,"a\nb",x\n2,"say ""hi', '""\nthere",y\n3,z\n'];
    const out = chunks.map((c) => crlfRecords(Buffer.from(c), state).toString()).join('');
    expect(out).toBe('1,"a\nb",x\r\n2,"say ""hi""\nthere",y\r\n3,z\r\n');
    expect(state.quoted).toBe(false);
  });
});
