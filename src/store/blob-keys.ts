// What a blob key may be: a relative, `/`-separated path with no empty, `.` or `..` part, so that
// no key names a place outside the store's own (a file outside the data dir, another prefix).
import { AppError } from "../core/errors.ts";

export function checkedKey(key: string): string {
  const parts = key.split("/");
  if (key === "" || parts.some((part) => part === "" || part === "." || part === "..") || key.includes("\\") || key.includes("\0")) {
    throw new AppError("INTERNAL", `"${key}" is not a storage key: keys are relative paths without empty, "." or ".." parts.`);
  }
  return key;
}
