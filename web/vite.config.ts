// Builds the web UI (web/ → web/dist), which the server serves at /. Paths are relative to the
// repository root, where the npm scripts run; `vite dev` proxies the API to a server on :8000
// and puts that server's install token (from DATA_DIR, else ./data) in the page, as the server does.
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import tailwindcss from "@tailwindcss/vite";
import react from "@vitejs/plugin-react";
import { defineConfig, type Plugin } from "vite";
import { INSTALL_TOKEN_META } from "../src/protocol/api.ts";

const installToken = (): Plugin => ({
  name: "easyagentcu-install-token",
  apply: "serve",
  transformIndexHtml() {
    const file = path.resolve(process.env.DATA_DIR ?? "data", "install-token");
    if (!existsSync(file)) return [];
    return [{ tag: "meta", attrs: { name: INSTALL_TOKEN_META, content: readFileSync(file, "utf8").trim() }, injectTo: "head" }];
  },
});

export default defineConfig({
  root: "web",
  plugins: [react(), tailwindcss(), installToken()],
  build: { outDir: "dist", emptyOutDir: true },
  server: { proxy: { "/api": "http://127.0.0.1:8000" } },
});
