// A folder of a virtual desktop's own that its programs can read but not change, where a file
// the task uploads is copied for a file dialog to open: the data dir it comes from is the
// server's alone (desktop-fence.ts). It is root's, its group the fenced user's (0750, files
// 0640), so no program of the desktop can swap a path in it for a link that the server would
// follow when it writes there; it goes with the desktop.
import { chmod, chown, copyFile, mkdir, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import type { UploadFile } from "../computer.ts";
import type { FencedUser } from "./desktop-fence.ts";

export class UploadFolder {
  private placed = 0;

  private constructor(
    private readonly dir: string,
    private readonly fence: FencedUser | null,
  ) {}

  /** `fence`: the user the desktop's programs run as; without one they run as the server's user, who reads the folder anyway. */
  static async make(fence: FencedUser | null): Promise<UploadFolder> {
    const folder = new UploadFolder(await mkdtemp(path.join(tmpdir(), "easyagentcu-uploads-")), fence);
    await folder.share(folder.dir, 0o750);
    return folder;
  }

  /** Copies the file in, under its own name (each in a folder of its own, so that two of one name both keep it), and returns its path there. */
  async place(file: UploadFile): Promise<string> {
    const folder = path.join(this.dir, String(++this.placed));
    await mkdir(folder);
    await this.share(folder, 0o750);
    const placed = path.join(folder, path.basename(file.path));
    await copyFile(file.path, placed);
    await this.share(placed, 0o640);
    return placed;
  }

  async remove(): Promise<void> {
    await rm(this.dir, { recursive: true, force: true });
  }

  private async share(entry: string, mode: number): Promise<void> {
    if (this.fence) await chown(entry, process.getuid?.() ?? 0, this.fence.gid);
    await chmod(entry, mode);
  }
}
