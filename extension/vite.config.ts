// Builds the MV3 extension (extension/ → extension/dist, loadable unpacked). The worker and the
// popup are ES modules and may share chunks; the overlay content script and the page bundle
// cannot be modules, so each is built afterwards as one self-contained IIFE. The manifest is
// copied as is.
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { build, defineConfig, type Plugin } from "vite";

const HERE = path.dirname(fileURLToPath(import.meta.url));
const SRC = path.join(HERE, "src");
const OUT = path.join(HERE, "dist");
const TARGET = "chrome125";

/** Content scripts and scripts injected with chrome.scripting: classic scripts, no imports. */
const CLASSIC_SCRIPTS = { overlay: "content/overlay.ts", page: "page/main.ts" };

const extensionFiles = (): Plugin => ({
  name: "easyagentcu-extension-files",
  apply: "build",
  generateBundle() {
    this.emitFile({ type: "asset", fileName: "manifest.json", source: readFileSync(path.join(HERE, "manifest.json"), "utf8") });
  },
  async closeBundle() {
    for (const [name, entry] of Object.entries(CLASSIC_SCRIPTS)) {
      await build({
        configFile: false,
        logLevel: "warn",
        publicDir: false,
        build: {
          outDir: OUT,
          emptyOutDir: false,
          target: TARGET,
          minify: false,
          lib: { entry: path.join(SRC, entry), formats: ["iife"], name: `easyagentcu_${name}`, fileName: () => `${name}.js` },
        },
      });
    }
  },
});

export default defineConfig({
  root: SRC,
  base: "/",
  publicDir: false,
  plugins: [extensionFiles()],
  build: {
    outDir: OUT,
    emptyOutDir: true,
    target: TARGET,
    minify: false,
    modulePreload: false,
    rollupOptions: {
      input: { background: path.join(SRC, "background/main.ts"), popup: path.join(SRC, "popup/popup.html") },
      output: {
        entryFileNames: (chunk) => (chunk.name === "background" ? "background.js" : "assets/[name]-[hash].js"),
        chunkFileNames: "assets/[name]-[hash].js",
      },
    },
  },
});
