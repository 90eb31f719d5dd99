/**
 * The reverse Cuthill–McKee order of an undirected graph (Cuthill & McKee, Proc. 24th ACM National
 * Conference, 1969; reversed as George 1971 showed shrinks the envelope): breadth-first from a
 * pseudo-peripheral node of each component (George & Liu 1979: repeat the search from the farthest,
 * lowest-degree node while the level structure deepens), visiting neighbours by ascending degree,
 * ties by index, so the order is deterministic. The graph is in compressed rows (`rowStart`,
 * `neighbours`, both directions stored). Returns `order[newIndex] = oldIndex`.
 */
export function reverseCuthillMcKee(rowStart: Int32Array, neighbours: Int32Array): Int32Array {
  const n = rowStart.length - 1;
  const degree = (i: number) => (rowStart[i + 1] as number) - (rowStart[i] as number);
  const placed = new Uint8Array(n);
  const order: number[] = [];
  /** Breadth-first levels from `root` over the unplaced nodes: the visit order and the depth. */
  const levels = (root: number): { visit: number[]; depth: number; last: number[] } => {
    const seen = new Map<number, number>([[root, 0]]);
    const visit = [root];
    for (let head = 0; head < visit.length; head++) {
      const i = visit[head] as number;
      const next = [];
      for (let at = rowStart[i] as number; at < (rowStart[i + 1] as number); at++) {
        const j = neighbours[at] as number;
        if (placed[j] === 0 && !seen.has(j)) next.push(j);
      }
      next.sort((a, b) => degree(a) - degree(b) || a - b);
      for (const j of next) {
        seen.set(j, (seen.get(i) as number) + 1);
        visit.push(j);
      }
    }
    const depth = seen.get(visit[visit.length - 1] as number) as number;
    return { visit, depth, last: visit.filter((i) => seen.get(i) === depth) };
  };
  for (let start = 0; start < n; start++) {
    if (placed[start] !== 0) continue;
    let root = start;
    let search = levels(root);
    for (;;) {
      const candidate = [...search.last].sort((a, b) => degree(a) - degree(b) || a - b)[0] as number;
      const again = levels(candidate);
      if (again.depth <= search.depth) break;
      root = candidate;
      search = again;
    }
    for (const i of search.visit) {
      placed[i] = 1;
      order.push(i);
    }
  }
  return Int32Array.from(order.reverse());
}
