// The layering of STYLE.md, checked on every import, side-effect and dynamic ones included: each
// folder of src/ has an allow list (Playwright's DEPS.list files are the model) naming the folders,
// or single files, and the packages it may import; perception, computers and models are peers and
// import none of each other but the perception types computers draw with. `playwright-core` only
// inside computers/browser, the X11 client only inside computers/desktop; tools and drivers act on
// a screen only through the hands, whatever name they hold a computer by; the web UI imports
// nothing of the server but src/protocol, the Chrome extension also the in-page code of src/injected.
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = path.resolve(import.meta.dirname, "..");
const SRC = path.join(ROOT, "src");

/** What each folder may import: folders (`core`) or single files (`agent/ports.ts`) of src/, and packages (`node:` is Node's own). */
const DEPS: Record<string, { src: string[]; packages: string[] }> = {
  protocol: { src: [], packages: ["zod"] },
  injected: { src: [], packages: [] },
  core: { src: ["protocol"], packages: ["node:", "zod"] },
  perception: { src: ["protocol", "core"], packages: ["node:", "zod", "sharp", "js-tiktoken", "onnxruntime-node"] },
  computers: {
    src: ["protocol", "core", "perception", "injected"],
    packages: ["node:", "pino", "playwright-core", "x11", "sharp", "ws", "@mozilla/readability", "@nut-tree-fork/nut-js"],
  },
  models: { src: ["protocol", "core", "perception"], packages: ["node:", "pino", "zod", "unpdf", "@ui-tars/action-parser"] },
  hands: { src: ["protocol", "core", "perception", "computers"], packages: [] },
  tools: { src: ["protocol", "core", "perception", "computers", "hands", "models/chat"], packages: ["zod"] },
  agent: { src: ["protocol", "core", "perception", "computers", "models", "hands", "tools"], packages: ["node:", "pino", "zod"] },
  store: { src: ["protocol", "core", "perception", "agent/ports.ts"], packages: ["node:", "pino", "better-sqlite3", "kysely", "pg", "@aws-sdk/client-s3"] },
  mcp: { src: ["protocol", "core", "agent", "store", "tools"], packages: ["node:", "zod", "hono", "@modelcontextprotocol/sdk"] },
  eval: { src: ["protocol", "core", "perception", "computers", "models", "agent", "store"], packages: ["node:", "zod", "yaml"] },
  server: {
    src: ["protocol", "core", "agent", "store", "mcp", "computers/extension"],
    packages: ["node:", "pino", "zod", "hono", "@hono/node-server", "ws", "@ag-ui/core", "@ag-ui/encoder"],
  },
  worker: { src: ["core", "agent/ports.ts"], packages: ["pino", "pg-boss"] },
  cli: {
    src: ["protocol", "core", "perception", "computers", "models", "agent", "store", "mcp", "server", "eval", "worker"],
    packages: ["node:", "pino", "commander", "@modelcontextprotocol/sdk"],
  },
};

/** A computer's actions; only the hands call them. */
const COMPUTER_ACTIONS = ["click", "doubleClick", "drag", "type", "keypress", "holdKeys", "scroll", "move", "navigate"];

function files(dir: string): string[] {
  let entries: string[];
  try {
    entries = readdirSync(dir);
  } catch {
    return [];
  }
  return entries.flatMap((name) => {
    const full = path.join(dir, name);
    if (name === "node_modules" || name === "dist") return [];
    if (statSync(full).isDirectory()) return files(full);
    return /\.(ts|tsx)$/.test(name) ? [full] : [];
  });
}

/** A source without its comments, so that an import named in a comment is not read as one. */
function uncommented(source: string): string {
  return source.replace(/\/\*[\s\S]*?\*\//g, "").replace(/(^|[^:"'`])\/\/.*$/gm, "$1");
}

/**
 * A source's code alone: comments, and what strings and template texts say, left out (a template's
 * `${…}` is code), so that code a file writes for others — an exported script — is not read as its own.
 */
function codeOnly(source: string): string {
  let out = "";
  // Each open template, with how many braces of its current `${…}` are open (-1: in its text).
  const templates: number[] = [];
  for (let i = 0; i < source.length; i++) {
    const ch = source[i]!;
    const depth = templates.at(-1);
    if (depth === -1) {
      if (ch === "\\") i++;
      else if (ch === "`") {
        templates.pop();
        out += "`";
      }
      else if (ch === "$" && source[i + 1] === "{") {
        templates[templates.length - 1] = 0;
        i++;
      }
      continue;
    }
    if (ch === "/" && source[i + 1] === "/") {
      i = source.indexOf("\n", i) - 1;
      if (i < 0) break;
    } else if (ch === "/" && source[i + 1] === "*") {
      i = source.indexOf("*/", i + 2) + 1;
      if (i <= 0) break;
    } else if (ch === '"' || ch === "'") {
      for (i++; i < source.length && source[i] !== ch && source[i] !== "\n"; i++) if (source[i] === "\\") i++;
      out += `${ch}${ch}`;
    } else if (ch === "`") {
      templates.push(-1);
      out += "`";
    } else {
      if (depth !== undefined && ch === "{") templates[templates.length - 1] = depth + 1;
      if (depth !== undefined && ch === "}") {
        if (depth === 0) {
          templates[templates.length - 1] = -1;
          continue;
        }
        templates[templates.length - 1] = depth - 1;
      }
      out += ch;
    }
  }
  return out;
}

/** Every module a source loads: `import … from`, `export … from`, `import "…"` for its side effects, `import("…")`. */
function importsIn(source: string): string[] {
  const pattern = /(?:^|[;\n])\s*(?:import|export)\s+(?:[^'";]*?\s+from\s+)?["']([^"']+)["']|\bimport\(\s*["']([^"']+)["']\s*\)/g;
  return [...uncommented(source).matchAll(pattern)].map((m) => (m[1] ?? m[2])!);
}

const imports = (file: string) => importsIn(readFileSync(file, "utf8"));

/** `src/agent/ports.ts` → `agent/ports.ts`. */
function inSrc(file: string): string {
  return path.relative(SRC, file).split(path.sep).join("/");
}

function packageOf(spec: string): string {
  if (spec.startsWith("node:")) return "node:";
  const parts = spec.split("/");
  return spec.startsWith("@") ? parts.slice(0, 2).join("/") : parts[0]!;
}

const covers = (allowed: string, target: string) => target === allowed || target.startsWith(`${allowed}/`);

describe("layering", () => {
  const sources = files(SRC).filter((f) => !f.endsWith(".test.ts"));

  it("has source files to check", () => expect(sources.length).toBeGreaterThan(20));

  it("gives every folder of src/ an allow list", () => {
    const folders = readdirSync(SRC).filter((name) => statSync(path.join(SRC, name)).isDirectory());
    expect(folders.filter((folder) => !DEPS[folder])).toEqual([]);
  });

  it("reads code apart from what its comments, strings and template texts say", () => {
    const sample = 'const a = "x.click(1)"; // b.type(2)\nconst c = `await ${page.scroll(3)}.d.move(4)`; /* e.drag() */ f(\'g.navigate()\');';
    expect(codeOnly(sample)).toBe("const a = \"\"; \nconst c = `page.scroll(3)`;  f(\'\');");
  });

  it("reads side-effect and dynamic imports as imports", () => {
    const sample = ['import "./a.ts";', 'export * from "./b.ts";', 'const c = await import("./c.ts");', 'import type { D } from "./d.ts";', '// import "./e.ts";'].join("\n");
    expect(importsIn(sample)).toEqual(["./a.ts", "./b.ts", "./c.ts", "./d.ts"]);
  });

  it("every src/ import is on its folder's allow list", () => {
    const violations: string[] = [];
    for (const file of sources) {
      const folder = inSrc(file).split("/")[0]!;
      const allowed = DEPS[folder];
      if (!allowed) continue;
      for (const spec of imports(file)) {
        if (spec.startsWith(".")) {
          const target = inSrc(path.resolve(path.dirname(file), spec));
          if (target.startsWith(`${folder}/`)) continue;
          if (!allowed.src.some((entry) => covers(entry, target))) violations.push(`${inSrc(file)} imports ${target}, which ${folder}/ may not`);
        } else if (!allowed.packages.includes(packageOf(spec))) {
          violations.push(`${inSrc(file)} imports the package ${spec}, which ${folder}/ may not`);
        }
      }
    }
    expect(violations).toEqual([]);
  });

  it("tools and drivers act on a computer only through the hands, whatever they call it", () => {
    const names = COMPUTER_ACTIONS.join("|");
    const called = new RegExp(`(?:\\.|\\?\\.)(?:${names})\\s*\\(|\\[\\s*["'\`](?:${names})["'\`]\\s*\\]|\\{[^}=]*\\b(?:${names})\\b[^}=]*\\}\\s*=\\s*\\w`);
    const offenders = sources.filter((f) => /^(tools|agent)\//.test(inSrc(f)) && called.test(codeOnly(readFileSync(f, "utf8"))));
    expect(offenders.map(inSrc)).toEqual([]);
  });

  it("only computers/browser imports playwright-core", () => {
    const offenders = sources.filter((f) => !inSrc(f).startsWith("computers/browser/") && imports(f).some((s) => s.startsWith("playwright")));
    expect(offenders.map(inSrc)).toEqual([]);
  });

  it("only computers/desktop imports the X11 client and the native desktop's input", () => {
    const offenders = sources.filter(
      (f) => !inSrc(f).startsWith("computers/desktop/") && imports(f).some((s) => s === "x11" || s.startsWith("@nut-tree-fork/")),
    );
    expect(offenders.map(inSrc)).toEqual([]);
  });

  // The extension runs the server's page scanner in the page: one source, built into both.
  for (const [client, shared] of [["web", ["protocol"]], ["extension", ["protocol", "injected"]]] as const) {
    it(`${client}/ imports nothing from the server but ${shared.map((folder) => `src/${folder}`).join(" and ")}`, () => {
      const offenders: string[] = [];
      for (const file of files(path.join(ROOT, client))) {
        for (const spec of imports(file).filter((s) => s.startsWith("."))) {
          const target = path.relative(ROOT, path.resolve(path.dirname(file), spec)).split(path.sep).join("/");
          if (!target.startsWith(`${client}/`) && !shared.some((folder) => target.startsWith(`src/${folder}/`))) offenders.push(`${path.relative(ROOT, file)} → ${spec}`);
        }
      }
      expect(offenders).toEqual([]);
    });
  }
});
