import { describe, expect, it } from 'vitest';
import { CopyRows } from './copy-rows';

const finish = (row: Record<string, unknown>) => ({ ...row, done: true });

/** The rows of `copy` sent in chunks cut at `cuts`, joined as the stream sends them. */
function joined(copy: Buffer, cuts: number[], owned = false): string {
  const rows = new CopyRows(finish);
  const out: Buffer[] = [];
  let from = 0;
  for (const to of [...cuts, copy.length]) {
    out.push(...rows.push(owned ? Buffer.from(copy.subarray(from, to)) : copy.subarray(from, to), owned));
    from = to;
  }
  rows.end();
  return Buffer.concat(out).toString('utf8');
}

describe('CopyRows', () => {
  const lines = ['{"a":"é😀,\\n"}', '!{"b":"ü"}', '{"c":1}', '!{"d":[1,2]}', '!{"e":null}', '{"f":"!"}'];
  const copy = Buffer.from(lines.map((l) => `${l}\n`).join(''));
  const expected =
    '{"a":"é😀,\\n"},{"b":"ü","done":true},{"c":1},{"d":[1,2],"done":true},{"e":null,"done":true},{"f":"!"}';

  it('joins the rows with commas and finishes the marked ones, however the copy is cut', () => {
    expect(joined(copy, [])).toBe(expected);
    for (let a = 0; a <= copy.length; a++) {
      for (let b = a; b <= copy.length; b += 7) {
        expect(joined(copy, [a, b]), `${a},${b}`).toBe(expected);
        expect(joined(copy, [a, b], true), `${a},${b} owned`).toBe(expected);
      }
    }
    // Every byte its own chunk.
    expect(
      joined(
        copy,
        Array.from({ length: copy.length }, (_, i) => i),
      ),
    ).toBe(expected);
  });

  it('leaves a chunk it does not own as it was', () => {
    const before = Buffer.from(copy);
    joined(copy, [10]);
    expect(copy.equals(before)).toBe(true);
  });

  it('answers nothing for no rows, one row alone, and refuses a copy ending inside a row', () => {
    expect(joined(Buffer.alloc(0), [])).toBe('');
    expect(joined(Buffer.from('!{"x":1}\n'), [1])).toBe('{"x":1,"done":true}');
    expect(() => joined(Buffer.from('{"x":1}'), [])).toThrow(/inside a row/);
  });
});
