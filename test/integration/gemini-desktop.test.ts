// Gemini on the desktop (COMPUTER=desktop): the request offers the computerUse tool without the
// browser's functions and names the focused window; type_text_at on the grid types a command into
// a real terminal, pressing Enter, and the shell runs it.
import path from "node:path";
import { describe, expect, it } from "vitest";
import type { GenerateContentRequest } from "../../src/models/gemini/generate-content.ts";
import { gridOf } from "../../src/perception/grids.ts";
import type { TaskReply } from "../../src/protocol/index.ts";
import type { RecordedRequest, Reply } from "../support/scripted-model.ts";
import { openStream } from "../support/sse.ts";
import { desktopFolder, fileText, TERMINAL } from "../support/terminal.ts";
import { useWorld } from "../support/world.ts";

const { model, app } = useWorld({ config: { computer: "desktop", desktop: { apps: [TERMINAL] }, model: { provider: "gemini", name: "gemini-test", apiKey: "gm-key" } } });

const reply = (parts: Record<string, unknown>[]): Reply => ({
  message: { candidates: [{ content: { role: "model", parts }, finishReason: "STOP" }], usageMetadata: { promptTokenCount: 1000, candidatesTokenCount: 20 } },
});
const body = (r: RecordedRequest) => r.body as unknown as GenerateContentRequest;

describe("Gemini on the desktop", () => {
  it("types a command into a real terminal with type_text_at, offered no browser functions", async () => {
    const file = path.join(await desktopFolder("easyagentcu-gemini-desktop-"), "out.txt");
    const task = "write a greeting to a file";
    const written = fileText(file);
    let terminalUp = () => {};
    const up = new Promise<void>((resolve) => (terminalUp = resolve));
    const mine = (r: RecordedRequest) => JSON.stringify(body(r).contents?.[0]).includes(`Task: ${task}`);
    model.route(
      mine,
      {
        ...reply([
          { text: "Typing the command into the terminal." },
          // A shell reads Control+A as "start of line": the field is not cleared first.
          { functionCall: { name: "type_text_at", args: { ...gridOf("norm999").fromPixels({ x: 200, y: 100 }, { width: 1280, height: 800 }), text: `echo 'Hello from Gemini' > ${file}`, press_enter: true, clear_before_typing: false } } },
        ]),
        until: up,
      },
      { ...reply([{ text: "Written." }]), until: written },
    );
    const events = await openStream(app.url, "s-gemini-desktop", 0);
    const { json } = await app.api<{ task_id: string }>("POST", "/api/chat/send", { mode: "task", session_id: "s-gemini-desktop", text: task });
    await events.waitFor((e) => e.type === "screen.live" && e.window?.endsWith("— XTerm") === true, 30_000);
    terminalUp();
    expect(await events.completes(json.task_id, 60_000)).toMatchObject({ answer: "Written." });
    events.close();
    expect((await written).trim()).toBe("Hello from Gemini");
    const { steps } = (await app.api<TaskReply>("GET", `/api/tasks/${json.task_id}`)).json;
    expect(steps.map((s) => s.action?.type)).toEqual(["click", "type", "keypress", "done"]);

    const [first, second] = model.requests.filter(mine);
    expect(body(first!).tools).toEqual([{ computerUse: { environment: "ENVIRONMENT_BROWSER", excludedPredefinedFunctions: ["open_web_browser", "navigate", "go_back", "go_forward", "search"] } }]);
    // The terminal had the focus once the command was typed: the answer names it, as a desktop has no URL.
    const [response] = body(second!).contents.at(-1)!.parts as { functionResponse: { name: string; response: Record<string, unknown>; parts: unknown[] } }[];
    expect(response!.functionResponse).toMatchObject({ name: "type_text_at", response: { window: expect.stringContaining("(XTerm)") }, parts: [{ inlineData: expect.any(Object) }] });
    expect(response!.functionResponse.response).not.toHaveProperty("url");
  });

  it("offers Gemini 3.5 its desktop environment, whose click and type reach a real terminal", async () => {
    const file = path.join(await desktopFolder("easyagentcu-gemini-desktop-"), "out-2026.txt");
    const task = "write another greeting to a file";
    const written = fileText(file);
    let terminalUp = () => {};
    const up = new Promise<void>((resolve) => (terminalUp = resolve));
    const mine = (r: RecordedRequest) => JSON.stringify(body(r).contents?.[0]).includes(`Task: ${task}`);
    const at = gridOf("norm999").fromPixels({ x: 200, y: 100 }, { width: 1280, height: 800 });
    model.route(
      mine,
      { ...reply([{ functionCall: { name: "click", args: { ...at, intent: "Focusing the terminal." } } }, { functionCall: { name: "type", args: { text: `echo 'Hello from Gemini 3.5' > ${file}`, press_enter: true, intent: "Typing the command." } } }]), until: up },
      { ...reply([{ text: "Written." }]), until: written },
    );
    const events = await openStream(app.url, "s-gemini-desktop-2026", 0);
    const { json } = await app.api<{ task_id: string }>("POST", "/api/chat/send", { mode: "task", session_id: "s-gemini-desktop-2026", text: task, model: { provider: "gemini", name: "gemini-3.5-flash" } });
    await events.waitFor((e) => e.type === "screen.live" && e.window?.endsWith("— XTerm") === true, 30_000);
    terminalUp();
    expect(await events.completes(json.task_id, 60_000)).toMatchObject({ answer: "Written." });
    events.close();
    expect((await written).trim()).toBe("Hello from Gemini 3.5");
    const [first] = model.requests.filter(mine);
    expect(body(first!).tools).toEqual([{ computerUse: { environment: "ENVIRONMENT_DESKTOP" } }]);
  });
});
