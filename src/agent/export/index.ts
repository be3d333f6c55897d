// A finished task's export, for the API and the CLI alike: the trajectory as JSON, or the
// Playwright script written from it, with the file name it is saved under.
import { everyTool, findTool } from "../../tools/index.ts";
import type { ExportFormat, ProgressStep, Task } from "../../protocol/index.ts";
import { playwrightScript } from "./playwright-script.ts";
import { trajectoryOf } from "./trajectory.ts";

export interface TaskExport {
  body: string;
  contentType: string;
  fileName: string;
}

const TOOLS = everyTool();

/** Throws NOT_EXPORTABLE when the format cannot carry the task's steps (a desktop's, as a Playwright script). */
export function exportTask(task: Task, steps: ProgressStep[], format: ExportFormat, deviceScaleFactor: number): TaskExport {
  const trajectory = trajectoryOf(task, steps, deviceScaleFactor, (name) => {
    const tool = findTool(TOOLS, name);
    return { looks: tool?.looks ?? false, ends: tool?.ends ?? false };
  });
  switch (format) {
    case "json":
      return { body: `${JSON.stringify(trajectory, null, 2)}\n`, contentType: "application/json; charset=utf-8", fileName: `${task.id}.json` };
    case "playwright":
      return { body: playwrightScript(trajectory), contentType: "text/plain; charset=utf-8", fileName: `${task.id}.spec.ts` };
  }
}
