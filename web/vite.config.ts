// Builds the web UI (web/ → web/dist), which the server serves at /. Paths are relative to the
// repository root, where the npm scripts run; `vite dev` proxies the API to a server on :8000.
import tailwindcss from "@tailwindcss/vite";
import react from "@vitejs/plugin-react";
import { defineConfig } from "vite";

export default defineConfig({
  root: "web",
  plugins: [react(), tailwindcss()],
  build: { outDir: "dist", emptyOutDir: true },
  server: { proxy: { "/api": "http://127.0.0.1:8000" } },
});
