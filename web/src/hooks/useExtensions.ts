// The Chrome extensions connected to the server, asked again every few seconds while the person
// has "My Chrome" chosen: connecting one shows up without a reload.
import { useEffect, useState } from "react";
import { api } from "../api.ts";
import type { ExtensionListing } from "../protocol.ts";

const EVERY_MS = 3_000;

/** null until the first answer (or while not watching). */
export function useExtensions(watching: boolean): ExtensionListing[] | null {
  const [extensions, setExtensions] = useState<ExtensionListing[] | null>(null);
  useEffect(() => {
    if (!watching) return setExtensions(null);
    let live = true;
    const ask = () =>
      void api.extensions().then(
        (list) => live && setExtensions(list),
        () => live && setExtensions([]),
      );
    ask();
    const timer = setInterval(ask, EVERY_MS);
    return () => {
      live = false;
      clearInterval(timer);
    };
  }, [watching]);
  return extensions;
}
