/**
 * The rows of a `COPY (SELECT <row JSON> ...) TO STDOUT` (shared/row-json.ts) as the members of one JSON array:
 * PostgreSQL ends each row with a line feed, which no row contains (its JSON escapes every control character),
 * so each line feed becomes the comma between two rows and the last one is dropped. A line PostgreSQL marked
 * SLOW is parsed, finished in JavaScript and written back with JSON.stringify; every other byte is passed on
 * as PostgreSQL sent it.
 */
import { SLOW } from './row-json';

const LF = 0x0a;
const COMMA = 0x2c;
const MARK = SLOW.charCodeAt(0);
const LF_MARK = Buffer.from([LF, MARK]);
const COMMA_BUFFER = Buffer.from(',');

/**
 * Turns COPY output chunks (any split, even inside a UTF-8 character) into the bytes of the rows joined by
 * commas. `finish` completes a SLOW row (it may throw, e.g. a ZodError: the caller's stream then fails).
 */
export class CopyRows {
  /** A SLOW line being collected (its mark dropped), across chunks. */
  private slow: Buffer[] | undefined;
  private atLineStart = true;
  /** The comma after the previous chunk's last row, held back until another row comes. */
  private comma = false;

  constructor(private readonly finish: (row: Record<string, unknown>) => Record<string, unknown>) {}

  /**
   * The bytes of `chunk`'s rows, to be sent in order; an empty array while nothing can be sent yet. `owned`:
   * the chunk is the caller's own copy, changed in place (otherwise copied first).
   */
  push(chunk: Buffer, owned = false): Buffer[] {
    const out: Buffer[] = [];
    let i = 0;
    while (i < chunk.length) {
      if (this.slow) {
        const lf = chunk.indexOf(LF, i);
        if (lf < 0) {
          this.slow.push(Buffer.from(chunk.subarray(i)));
          break;
        }
        this.slow.push(chunk.subarray(i, lf));
        const row = JSON.parse(Buffer.concat(this.slow).toString('utf8')) as Record<string, unknown>;
        out.push(Buffer.from(`${JSON.stringify(this.finish(row))},`));
        this.slow = undefined;
        this.atLineStart = true;
        i = lf + 1;
        continue;
      }
      if (this.atLineStart && chunk[i] === MARK) {
        this.slow = [];
        this.atLineStart = false;
        i++;
        continue;
      }
      // Plain rows up to the next SLOW one, their line feeds made commas (in a copy unless `owned`).
      const mark = chunk.indexOf(LF_MARK, i);
      const end = mark < 0 ? chunk.length : mark + 1;
      const endsLine = chunk[end - 1] === LF;
      const run = owned ? chunk.subarray(i, end) : Buffer.from(chunk.subarray(i, end));
      for (let lf = run.indexOf(LF); lf >= 0; lf = run.indexOf(LF, lf + 1)) run[lf] = COMMA;
      out.push(run);
      this.atLineStart = endsLine;
      i = end;
    }
    if (!out.length) return out;
    if (this.comma) out.unshift(COMMA_BUFFER);
    // A comma that ends the output ends a row: sent only once another row follows.
    const last = out[out.length - 1]!;
    this.comma = this.atLineStart && !this.slow;
    if (this.comma) out[out.length - 1] = last.subarray(0, last.length - 1);
    return out;
  }

  /** @throws Error when the copy ended inside a row (PostgreSQL always ends its rows with a line feed). */
  end(): void {
    if (this.slow || !this.atLineStart) throw new Error('the load-all copy ended inside a row');
  }
}
