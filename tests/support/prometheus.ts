/**
 * A small reader of the Prometheus text format for the metrics tests (issue 24): the metric families a scrape
 * declares (`# TYPE` lines) and each sample's value by its series (`name{label="value",...}`).
 */
export interface Scrape {
  /** Metric family names declared with `# TYPE`. */
  families: Set<string>;
  /** The value of one sample: `name` and exactly these labels; undefined when absent. */
  value(name: string, labels?: Record<string, string>): number | undefined;
  /** Every sample of `name` with its labels. */
  samples(name: string): { labels: Record<string, string>; value: number }[];
}

const SAMPLE = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})?\s+(\S+)(?:\s+\d+)?$/;
const LABEL = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g;

/**
 * Parses `text`.
 * @throws Error naming the first line that is neither a comment nor a sample.
 */
export function parsePrometheus(text: string): Scrape {
  const families = new Set<string>();
  const all: { name: string; labels: Record<string, string>; value: number }[] = [];
  for (const line of text.split('\n')) {
    if (!line.trim()) continue;
    const type = /^# TYPE (\S+) \S+$/.exec(line);
    if (type) families.add(type[1]!);
    if (line.startsWith('#')) continue;
    const m = SAMPLE.exec(line);
    if (!m) throw new Error(`not Prometheus text: ${line}`);
    const labels: Record<string, string> = {};
    for (const [, key, value] of (m[2] ?? '').matchAll(LABEL)) labels[key!] = value!.replace(/\\(.)/g, '$1');
    all.push({ name: m[1]!, labels, value: Number(m[3]) });
  }
  const samples = (name: string) => all.filter((s) => s.name === name).map(({ labels, value }) => ({ labels, value }));
  const same = (a: Record<string, string>, b: Record<string, string>) =>
    Object.keys(a).length === Object.keys(b).length && Object.entries(b).every(([k, v]) => a[k] === v);
  return {
    families,
    samples,
    value: (name, labels = {}) => samples(name).find((s) => same(s.labels, labels))?.value,
  };
}
