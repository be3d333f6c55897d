// Connected components of a binary mask (8-connected), in two passes with union–find: every
// component's bounding box and pixel count, and the label image that says which pixel belongs to
// which (labels start at 1; 0 is background).
export interface Component {
  label: number;
  /** Inclusive bounds. */
  x0: number;
  y0: number;
  x1: number;
  y1: number;
  pixels: number;
}

export interface Labelling {
  labels: Int32Array;
  components: Component[];
}

export function labelComponents(mask: Uint8Array, width: number, height: number): Labelling {
  const provisional = new Int32Array(width * height);
  let parent = new Int32Array(1024);
  let next = 1;
  const find = (a: number): number => {
    while (parent[a] !== a) {
      parent[a] = parent[parent[a]!]!;
      a = parent[a]!;
    }
    return a;
  };
  const join = (a: number, b: number): number => {
    const ra = find(a);
    const rb = find(b);
    if (ra === rb) return ra;
    if (ra < rb) return (parent[rb] = ra);
    return (parent[ra] = rb);
  };
  const merge = (label: number, neighbour: number): number => (neighbour === 0 ? label : label === 0 ? neighbour : join(label, neighbour));
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = y * width + x;
      if (mask[i] === 0) continue;
      // Neighbours already visited: left, and the three above.
      let label = x > 0 ? provisional[i - 1]! : 0;
      if (y > 0) {
        const up = i - width;
        if (x > 0) label = merge(label, provisional[up - 1]!);
        label = merge(label, provisional[up]!);
        if (x + 1 < width) label = merge(label, provisional[up + 1]!);
      }
      if (label === 0) {
        if (next === parent.length) {
          const grown = new Int32Array(parent.length * 2);
          grown.set(parent);
          parent = grown;
        }
        parent[next] = next;
        label = next++;
      }
      provisional[i] = label;
    }
  }
  // Compact the roots to 1…n and gather each component's box.
  const compact = new Int32Array(next);
  const components: Component[] = [];
  for (let l = 1; l < next; l++) {
    const root = find(l);
    if (compact[root] === 0) {
      components.push({ label: components.length + 1, x0: width, y0: height, x1: -1, y1: -1, pixels: 0 });
      compact[root] = components.length;
    }
    compact[l] = compact[root]!;
  }
  const labels = provisional;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = y * width + x;
      if (labels[i] === 0) continue;
      const label = compact[labels[i]!]!;
      labels[i] = label;
      const c = components[label - 1]!;
      if (x < c.x0) c.x0 = x;
      if (x > c.x1) c.x1 = x;
      if (y < c.y0) c.y0 = y;
      if (y > c.y1) c.y1 = y;
      c.pixels++;
    }
  }
  return { labels, components };
}
