/**
 * Maps an async stream through `work` with up to `window` items in flight, yielding results in
 * input order (issue 10 item 4: output order is the input order whatever the worker count).
 * Memory holds at most `window` results. `work` must not reject.
 */
export async function* mapInOrder<T, R>(
  items: AsyncIterable<T>,
  window: number,
  work: (item: T) => Promise<R>,
): AsyncGenerator<R> {
  const inFlight: Promise<R>[] = [];
  for await (const item of items) {
    inFlight.push(work(item));
    if (inFlight.length >= window) yield await (inFlight.shift() as Promise<R>);
  }
  while (inFlight.length > 0) yield await (inFlight.shift() as Promise<R>);
}
