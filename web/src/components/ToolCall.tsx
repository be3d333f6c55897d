// A tool-agent step's call: the tool, what it was asked (its input) and what it returned — the
// ARIA tree as text, extracted data as formatted JSON, anything else as JSON — or its error.
// Presentational: it shows the call it is given.
import type { ToolCallRecord } from "../protocol.ts";
import { t } from "../i18n.ts";
import { ErrorReason } from "./ErrorNotice.tsx";

export function ToolCall({ call }: { call: ToolCallRecord }) {
  const output = call.output && typeof call.output === "object" ? (call.output as Record<string, unknown>) : null;
  const extracted = call.name === "extract" && output && "result" in output;
  const treeText = call.name === "ariaTree" && typeof output?.content === "string" ? output.content : null;
  return (
    <section aria-label={t.toolCall} data-testid="tool-call" className="rounded-lg bg-zinc-50 px-3 py-2 text-xs text-zinc-700">
      <p className="font-medium text-zinc-900">
        <span className="font-mono">{call.name}</span>
        <span className={call.ok ? "text-emerald-700" : "text-red-700"}>{call.ok ? ` ✓ ${t.toolOk}` : ` ✗ ${t.toolFailed}`}</span>
      </p>
      {isEmpty(call.input) ? null : <Block label={t.toolInput} text={json(call.input)} testId="tool-input" />}
      {call.error && <ErrorReason error={call.error} testId="tool-error" className="mt-1 text-red-800" />}
      {extracted ? (
        <Block label={t.extracted} text={json(output.result)} testId="extracted" open />
      ) : treeText !== null ? (
        <Block label={t.ariaTree} text={treeText} testId="tool-output" />
      ) : output ? (
        <Block label={t.toolOutput} text={json(output)} testId="tool-output" />
      ) : null}
    </section>
  );
}

function Block({ label, text, testId, open = false }: { label: string; text: string; testId: string; open?: boolean }) {
  return (
    <details open={open} className="mt-1">
      <summary className="cursor-pointer text-zinc-500 hover:text-zinc-800">{label}</summary>
      <pre data-testid={testId} className="mt-1 max-h-64 overflow-auto rounded border border-zinc-200 bg-white p-2 font-mono text-[11px] leading-snug whitespace-pre-wrap text-zinc-800">
        {text}
      </pre>
    </details>
  );
}

function json(value: unknown): string {
  return JSON.stringify(value, null, 2) ?? "null";
}

function isEmpty(value: unknown): boolean {
  return value === null || value === undefined || (typeof value === "object" && Object.keys(value).length === 0);
}
