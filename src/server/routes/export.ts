// GET /api/tasks/:id/export?format=json|playwright: a task's trajectory (docs/trajectory.md) or a
// Playwright script of it, as a download. A desktop task has no script: 409 NOT_EXPORTABLE says why.
import { Hono } from "hono";
import { exportTask } from "../../agent/export/index.ts";
import { exportQuerySchema } from "../../protocol/index.ts";
import type { Store } from "../../store/store.ts";
import { notFound, parseWith } from "../http-error.ts";

export function exportRoutes(store: Store, deviceScaleFactor: number) {
  return new Hono().get("/tasks/:id/export", async (c) => {
    const id = c.req.param("id");
    const { format } = parseWith(exportQuerySchema, c.req.query(), "query");
    const task = await store.getTask(id);
    if (!task) throw notFound("task", id);
    const made = exportTask(task, await store.listSteps(id), format, deviceScaleFactor);
    return c.body(made.body, 200, {
      "content-type": made.contentType,
      "content-disposition": `attachment; filename="${made.fileName}"`,
      "x-content-type-options": "nosniff",
      "cache-control": "private, no-store",
    });
  });
}
