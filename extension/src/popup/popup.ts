// The toolbar popup: the connection's state (connected, connecting, offline with the last error),
// the server URL and token to edit, and this browser's client id. Saving the settings makes the
// worker reconnect (it watches chrome.storage).
import { existingClientId, readSettings, readStatus, STATUS_KEY, writeSettings, type ConnectionStatus } from "../shared/settings.ts";

const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;

const LABELS: Record<ConnectionStatus["state"], string> = { connected: "Connected", connecting: "Connecting…", offline: "Offline" };

function showStatus(status: ConnectionStatus | undefined) {
  const state = status?.state ?? "offline";
  $("status").dataset.state = state;
  $("state").textContent = status ? `${LABELS[state]} · ${status.url}` : "Not started yet";
  const error = $("error");
  error.hidden = !(state === "offline" && status?.lastError);
  error.textContent = status?.lastError ?? "";
}

async function init() {
  // Read together and shown at once: the popup never shows a connection without its client id.
  const [settings, status, clientId] = await Promise.all([readSettings(), readStatus(), existingClientId()]);
  $<HTMLInputElement>("serverUrl").value = settings.serverUrl;
  $<HTMLInputElement>("token").value = settings.token;
  $<HTMLInputElement>("signIn").value = settings.signIn;
  showStatus(status);
  $("clientId").textContent = clientId ?? "not made yet";
  chrome.storage.session.onChanged.addListener((changes) => {
    if (STATUS_KEY in changes) showStatus(changes[STATUS_KEY]!.newValue as ConnectionStatus | undefined);
  });
  chrome.storage.local.onChanged.addListener((changes) => {
    if ("clientId" in changes) $("clientId").textContent = String(changes.clientId!.newValue);
  });
  $<HTMLFormElement>("settings").addEventListener("submit", (event) => {
    event.preventDefault();
    const serverUrl = $<HTMLInputElement>("serverUrl").value;
    try {
      new URL(serverUrl);
    } catch {
      showStatus({ state: "offline", url: serverUrl, lastError: "That server URL is not a valid address.", since: Date.now() });
      return;
    }
    void writeSettings({ serverUrl, token: $<HTMLInputElement>("token").value, signIn: $<HTMLInputElement>("signIn").value });
  });
}

void init();
