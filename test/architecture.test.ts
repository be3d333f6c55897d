// The layering of STYLE.md, checked on every import: protocol ← core ← perception ← computers ←
// models ← hands ← tools ← agent ← store ← server ← eval ← cli; `playwright-core` only inside computers/browser; the web
// UI and the Chrome extension import nothing of the server but src/protocol.
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = path.resolve(import.meta.dirname, "..");
const LAYERS = ["protocol", "core", "perception", "computers", "models", "hands", "tools", "agent", "store", "server", "eval", "cli"];

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

function imports(file: string): string[] {
  const source = readFileSync(file, "utf8");
  return [...source.matchAll(/(?:^|\n)\s*(?:import|export)[^'"]*?from\s+["']([^"']+)["']|import\(\s*["']([^"']+)["']\s*\)/g)].map(
    (m) => (m[1] ?? m[2])!,
  );
}

function layerOf(file: string): string | undefined {
  return path.relative(path.join(ROOT, "src"), file).split(path.sep)[0];
}

describe("layering", () => {
  const sources = files(path.join(ROOT, "src")).filter((f) => !f.endsWith(".test.ts"));

  it("has source files to check", () => expect(sources.length).toBeGreaterThan(20));

  it("every src/ import points down the layers, never up", () => {
    const violations: string[] = [];
    for (const file of sources) {
      const from = LAYERS.indexOf(layerOf(file)!);
      for (const spec of imports(file).filter((s) => s.startsWith("."))) {
        const target = layerOf(path.resolve(path.dirname(file), spec));
        const to = LAYERS.indexOf(target!);
        if (to > from) violations.push(`${path.relative(ROOT, file)} imports ${spec} (${target} is above ${layerOf(file)})`);
      }
    }
    expect(violations).toEqual([]);
  });

  it("hands take the model's look as a callback: they import no model", () => {
    const offenders = sources.filter((f) => layerOf(f) === "hands" && imports(f).some((s) => path.resolve(path.dirname(f), s).includes(`${path.sep}src${path.sep}models${path.sep}`)));
    expect(offenders.map((f) => path.relative(ROOT, f))).toEqual([]);
  });

  it("tools and drivers act on a computer only through the hands", () => {
    const offenders = sources.filter(
      (f) => ["tools", "agent"].includes(layerOf(f)!) && /\bcomputer\.(click|doubleClick|drag|type|keypress|scroll|move|navigate)\(/.test(readFileSync(f, "utf8")),
    );
    expect(offenders.map((f) => path.relative(ROOT, f))).toEqual([]);
  });

  it("only computers/browser imports playwright-core", () => {
    const offenders = sources.filter(
      (f) => !f.includes(`${path.sep}computers${path.sep}browser${path.sep}`) && imports(f).some((s) => s.startsWith("playwright")),
    );
    expect(offenders.map((f) => path.relative(ROOT, f))).toEqual([]);
  });

  it("only computers/desktop imports the X11 client", () => {
    const offenders = sources.filter((f) => !f.includes(`${path.sep}computers${path.sep}desktop${path.sep}`) && imports(f).includes("x11"));
    expect(offenders.map((f) => path.relative(ROOT, f))).toEqual([]);
  });

  for (const client of ["web", "extension"]) {
    it(`${client}/ imports nothing from the server but src/protocol`, () => {
      const offenders: string[] = [];
      for (const file of files(path.join(ROOT, client))) {
        for (const spec of imports(file).filter((s) => s.startsWith("."))) {
          const target = path.relative(ROOT, path.resolve(path.dirname(file), spec));
          if (!target.startsWith(client) && !target.startsWith(path.join("src", "protocol"))) offenders.push(`${path.relative(ROOT, file)} → ${spec}`);
        }
      }
      expect(offenders).toEqual([]);
    });
  }
});
