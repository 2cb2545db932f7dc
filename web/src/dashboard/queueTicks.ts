/** The step of the count axis: 1, 2 or 5 times a power of ten, so that `top` needs at most five steps. */
function stepFor(top: number): number {
  for (let scale = 1; ; scale *= 10) {
    const step = [1, 2, 5].map((m) => m * scale).find((s) => Math.ceil(top / s) <= 5);
    if (step) return step;
  }
}

/**
 * The count axis of the queue chart: whole-number ticks from 0 to a round maximum at or above `max`, at most
 * six of them, each step 1, 2 or 5 times a power of ten. `max` 0 gives [0, 1] so the axis has a length.
 */
export function countTicks(max: number): number[] {
  const top = Math.max(1, Math.ceil(max));
  const step = stepFor(top);
  const ticks: number[] = [];
  for (let t = 0; t <= Math.ceil(top / step) * step; t += step) ticks.push(t);
  return ticks;
}
