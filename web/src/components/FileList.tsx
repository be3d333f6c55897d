// The files a task received (its browser's downloads, its desktop's new files), each a link that
// downloads it from the server. Presentational: the run's state holds the list (task.file events).
import type { TaskFile } from "../protocol.ts";
import { t } from "../i18n.ts";

export function FileList({ files }: { files: readonly TaskFile[] }) {
  if (files.length === 0) return null;
  return (
    <div data-testid="run-files" className="border-t border-zinc-100 px-4 py-2 sm:px-5">
      <h3 className="text-xs font-medium text-zinc-500">{t.receivedFiles}</h3>
      <ul className="mt-1 space-y-1">
        {files.map((file) => (
          <li key={file.id} className="flex items-baseline gap-2 text-sm">
            <a href={`/api/files/${encodeURIComponent(file.id)}`} download={file.name} className="truncate text-indigo-700 underline hover:text-indigo-900 focus-visible:outline-2 focus-visible:outline-indigo-500">
              {file.name}
            </a>
            <span className="shrink-0 text-xs text-zinc-500">{sizeText(file.size)}</span>
          </li>
        ))}
      </ul>
    </div>
  );
}

function sizeText(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}
