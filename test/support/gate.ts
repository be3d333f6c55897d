// A gate the test opens when it chooses: a scripted reply held `until` it is answered only then,
// so the test decides when a step ends.
export function gate(): { held: Promise<void>; open: () => void } {
  let open!: () => void;
  const held = new Promise<void>((resolve) => (open = resolve));
  return { held, open };
}
