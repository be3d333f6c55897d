// The service worker (background.js): wires the connection to the server, the snapshot of tabs,
// the actions, the CDP relay, the task tabs' downloads and the overlays together. Listeners are added synchronously at the
// top, as MV3 requires for events to wake a sleeping worker; the alarm wakes it to reconnect.
import "./zod-setup.ts";
import type { ServerMessage } from "../../../src/protocol/extension.ts";
import { RECONNECT_KEYS } from "../shared/settings.ts";
import { runAction } from "./actions/index.ts";
import { relayCommand, relayEvents } from "./cdp-relay.ts";
import { createConnection } from "./connection.ts";
import { fetchDownload, watchDownloads } from "./downloads.ts";
import { listenToOverlays, setOverlayState } from "./overlay.ts";
import { readSnapshot, watchTabs } from "./snapshot.ts";
import { tasks } from "./tasks.ts";

const WAKE_ALARM = "easyagentcu-wake";

const connection = createConnection({
  greeting: async () => [{ type: "full_state_sync", snapshot: await readSnapshot() }],
  onMessage,
});

function onMessage(message: ServerMessage): void {
  switch (message.type) {
    case "welcome":
      return;
    case "browser_action":
      return runAction(message, connection.send);
    case "cdp_command":
      return void relayCommand(message, connection.send);
    case "task_state":
      return void setOverlayState(message.taskId, message.tabId, message.state);
    case "download_fetch":
      return void fetchDownload(message, connection.send);
    default:
      // A newer server's message this version does not know: nothing to do.
      return;
  }
}

watchTabs(connection.send);
relayEvents(connection.send);
watchDownloads(connection.send);
listenToOverlays(connection.sendSoon);
chrome.tabs.onReplaced.addListener((added, removed) => void tasks.replaceTab(removed, added));
chrome.storage.onChanged.addListener((changes, area) => {
  if (area === "local" && RECONNECT_KEYS.some((key) => key in changes)) connection.restart();
});
chrome.alarms.onAlarm.addListener((alarm) => alarm.name === WAKE_ALARM && connection.ensure());
chrome.runtime.onStartup.addListener(() => connection.ensure());
chrome.runtime.onInstalled.addListener(() => connection.ensure());
void chrome.alarms.get(WAKE_ALARM).then(async (alarm) => {
  if (!alarm) await chrome.alarms.create(WAKE_ALARM, { periodInMinutes: 0.5 });
});
void tasks.ready().finally(() => connection.ensure());
