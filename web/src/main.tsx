// The entry point: mounts the app, inside what knows whether its model can be asked.
import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { App } from "./App.tsx";
import { ModelSetupProvider } from "./components/ModelSetup.tsx";
import { locale } from "./i18n.ts";
import "./styles.css";

document.documentElement.lang = locale === "zh" ? "zh-CN" : "en";
const root = document.getElementById("root");
if (root) {
  createRoot(root).render(
    <StrictMode>
      <ModelSetupProvider>
        <App />
      </ModelSetupProvider>
    </StrictMode>,
  );
}
