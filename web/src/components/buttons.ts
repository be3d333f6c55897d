// The buttons of the run cards: a main action, a secondary one, and their small forms for a card
// header. Each takes a finger at phone size; the desktop keeps its compact sizes.
/** At phone size a control a finger presses is at least 44 × 44 px. */
export const TOUCH = "max-sm:min-h-11 max-sm:min-w-11";
export const PRIMARY = `rounded-lg bg-indigo-600 px-4 py-2 text-sm font-semibold text-white shadow-sm hover:bg-indigo-700 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-500 disabled:opacity-60 ${TOUCH}`;
export const SMALL_SECONDARY = `shrink-0 rounded-md border border-zinc-300 bg-white px-2.5 py-0.5 text-xs font-medium text-zinc-700 hover:bg-zinc-100 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-500 disabled:opacity-60 ${TOUCH}`;
export const SMALL_PRIMARY = `shrink-0 rounded-md bg-indigo-600 px-3 py-1 text-sm font-semibold text-white hover:bg-indigo-700 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-500 disabled:opacity-60 ${TOUCH}`;
export const SECONDARY = `rounded-lg border border-zinc-300 px-3 py-2 text-sm font-medium text-zinc-700 hover:bg-zinc-100 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-500 disabled:opacity-60 ${TOUCH}`;
