// The composition root: holds the data dir, opens the store, recovers interrupted tasks, and wires the browser,
// the planner and the runtime together. `serve` and `run` both start from here.
import { networkInterfaces } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { pino, type Logger } from "pino";
import { ChatAgent } from "../agent/chat-agent.ts";
import type { RunRecorder } from "../agent/ports.ts";
import { Runtime } from "../agent/runtime.ts";
import { UploadFiles } from "../agent/upload-files.ts";
import { BrowserHost } from "../computers/browser/browser-host.ts";
import { browserLeases } from "../computers/browser/browser-pool.ts";
import { desktopFence, openDesktop } from "../computers/desktop/desktop-host.ts";
import type { DesktopFence } from "../computers/desktop/desktop-fence.ts";
import { ExtensionHost } from "../computers/extension/extension-host.ts";
import { removeLeftovers } from "../computers/browser/launch-dirs.ts";
import { attachRunningChrome, isRunningChrome } from "../computers/browser/running-chrome.ts";
import { SharedSignIns } from "../computers/browser/sign-ins.ts";
import { allowedEndpoint } from "../core/cdp-endpoints.ts";
import type { Config } from "../core/config.ts";
import { LiveConfig } from "../core/live-config.ts";
import { redactor, secretsOf, type Redactor } from "../core/redact.ts";
import { Secrets } from "../core/secrets.ts";
import type { NetworkPolicy } from "../core/network-policy.ts";
import { AppError } from "../core/errors.ts";
import { createChatModel } from "../models/chat/index.ts";
import { createPlanner } from "../models/index.ts";
import { modelReadiness } from "../models/readiness.ts";
import { loadTokenizer } from "../perception/page-view/tokens.ts";
import { isFinished, type ModelStatusReply, type Task } from "../protocol/index.ts";
import type { Computer } from "../computers/computer.ts";
import type { ModelSettingsControl } from "../server/routes/settings.ts";
import { lockDataDir } from "../store/data-lock.ts";
import { installToken } from "../store/install-token.ts";
import { ModelSettingsFile, readModelSettings } from "../store/model-settings.ts";
import { BrowserClaims } from "../store/browser-claims.ts";
import { Store } from "../store/store.ts";
import { takeLease } from "../store/task-leases.ts";
import { CommandSender } from "../worker/task-commands.ts";
import type { TaskJobs } from "../worker/task-jobs.ts";

export const WEB_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../web/dist");

export interface System {
  /** The configuration as the server started; `live.current` has the model the person set since. */
  config: Config;
  live: LiveConfig;
  /** Tells the fence the port the server listens on, so that the agent's browser cannot reach it. */
  serving(port: number): void;
  /** What every state-changing request carries (store/install-token.ts). */
  installToken: string;
  log: Logger;
  store: Store;
  browsers: BrowserHost;
  /** The person's Chrome through the extension: its registry, scheduler and artifacts. */
  extensions: ExtensionHost;
  runtime: Runtime;
  chat: ChatAgent;
  /** Whether the models can be asked (models/readiness.ts), checked again at most every 15 s and after the settings change. */
  modelStatus(): Promise<ModelStatusReply>;
  /** The model the person sets in the app, saved in the data dir over the environment's. */
  modelSettings: ModelSettingsControl;
  close(): Promise<void>;
}

const MODEL_STATUS_TTL_MS = 15_000;

export interface SystemOptions {
  /**
   * Marks tasks a dead process left active as interrupted; the server does it, while a `run` or
   * `replay` leaves them for the server to find. With TASK_QUEUE=postgres the queue takes up a dead
   * worker's tasks instead, and only the process's own leftovers are removed.
   */
  recover: boolean;
  /** Called with each task's computer as the task closes it, while it still shows the task's end (an evaluation's checks). */
  beforeClose?: (task: Task, computer: Computer) => Promise<void>;
  /** `serve` with TASK_QUEUE=postgres: its tasks go to this queue, for workers to run. */
  queue?: TaskJobs | undefined;
}

export async function startSystem(config: Config, options: SystemOptions, log: Logger = createLogger(config)): Promise<System> {
  // Every process holds its data dir, the server and `run` and `replay` alike: a second server
  // would take the first one's tasks for interrupted, and two processes' tasks would share its files.
  const lock = await lockDataDir(config.dataDir);
  const saved = await readModelSettings(config.dataDir).catch(async (error: unknown) => {
    await lock.release();
    throw error;
  });
  const live = new LiveConfig(config, saved);
  // The keys to mask are those of the configuration as it is when a record is made, and the
  // environment's, which a task begun before the person set another key may still echo.
  const redactNow = live.derive((current) => redactor(current, secretsOf(config)));
  const redact: Redactor = (value) => redactNow()(value);
  const store = await Store.open(config.dataDir, redact, config.databaseUrl ?? null, config.s3).catch(async (error: unknown) => {
    await lock.release();
    throw error;
  });
  const token = await installToken(config.dataDir).catch(async (error: unknown) => {
    await store.close();
    await lock.release();
    throw error;
  });
  const { queue } = options;
  const sender = queue
    ? await CommandSender.open(store).catch(async (error: unknown) => {
        await store.close();
        await lock.release();
        throw error;
      })
    : null;
  if (options.recover && config.taskQueue === "process") {
    const recovered = await store.recoverInterrupted();
    if (recovered.length > 0) log.warn({ tasks: recovered.map((t) => t.id) }, "marked tasks of a previous process as interrupted");
  }
  if (options.recover) {
    const leftovers = await removeLeftovers().catch((error: unknown) => log.warn({ err: error }, "could not remove the browser profiles of stopped servers"));
    if (leftovers?.length) log.info({ removed: leftovers }, "removed the browser profiles of servers that were killed");
    await UploadFiles.removeLeftovers(config.dataDir).catch((error: unknown) => log.warn({ err: error }, "could not remove the upload files of a previous process"));
  }
  // The tool agent's page view counts tokens. The tables hold the event loop while they load (up to
  // two seconds on a busy machine): when tasks use the tool agent on a browser unless they say
  // otherwise, they load before the server listens rather than while its first task streams.
  if (config.agent.mode !== "actions" && config.computer !== "desktop") {
    await loadTokenizer().catch((error: unknown) => log.warn({ err: error }, "could not load the token tables; the first page view tries again"));
  }
  // Known at start when tasks use the desktop unless they say otherwise, else at the first desktop task.
  let fence: Promise<DesktopFence> | null = null;
  const desktopFenced = () =>
    (fence ??= desktopFence(config).then((known) => {
      if (!known.fenced) log.warn({ why: known.why }, "the desktop's programs are not fenced: its terminal can reach EasyAgentCU's server and data dir, so typing into a terminal asks the person first");
      return known;
    }));
  if (config.computer === "desktop") await desktopFenced();
  // The server's own ports, as it listens: the agent's browser never reaches them.
  const serverPorts = new Set<number>(config.port > 0 ? [config.port] : []);
  const network = (): NetworkPolicy => ({ ...config.network, serverPorts, localAddresses: localAddresses() });
  const claims = new BrowserClaims(store.db);
  const pool = browserLeases(config.browser, {
    onDown: (endpoint, why) => log.warn({ endpoint, why }, "a browser of BROWSER_CDP_URLS is down; tasks pass it over for a while"),
    claim: (url, lost) => claims.claim(url, lost),
  });
  // With workers, a chat's tasks run in several processes: its sign-ins are kept where all of them read.
  const signIns =
    config.taskQueue === "postgres"
      ? new SharedSignIns(
          { read: (chat) => store.readSignIns(chat), forget: (chat) => store.forgetSignIns(chat) },
          (error) => log.warn({ err: error }, "could not keep a chat's sign-ins"),
        )
      : undefined;
  const browsers = new BrowserHost({ chromePath: config.browser.chromePath, headless: config.browser.headless, network, pool, fenceAddress: config.browser.fenceAddress, signIns });
  const { width, height, deviceScaleFactor, jpegQuality, navigationTimeoutMs } = config.browser;
  const secrets = new Secrets(config.secrets);
  const chatModel = live.derive(createChatModel);
  const extensions = new ExtensionHost(
    { ackMs: config.extension.ackTimeoutMs, execMs: config.extension.execTimeoutMs },
    browsers.unfencedGate,
    {
      takeover: (taskId) => void runtime.commands.takeOver(taskId),
      // Resume hands back a takeover, or answers a request to act as "I've done it" does.
      overlay: (taskId, command) => void (command === "stop" ? runtime.commands.stop(taskId) : runtime.commands.handBack(taskId).then((back) => back || runtime.commands.acknowledge(taskId))),
      tab: (taskId, tab) =>
        void store
          .getTask(taskId)
          .then((task) => task && store.emit(task.session_id, { type: "snapshotSync", task_id: taskId, tab: { id: tab.id, url: tab.url, title: tab.title } }))
          .catch((error: unknown) => log.warn({ err: error }, "could not send the task's tab to the UI")),
    },
    log,
  );
  const runtime = new Runtime(
    live,
    store,
    {
      plannerFor: (_task, choice) => createPlanner(live.current, choice, log),
      chatModel,
      openComputer: async (task, signal, recorder) => {
        const computer = await open(task, signal, recorder);
        const { beforeClose } = options;
        return beforeClose ? closingAfter(computer, () => beforeClose(task, computer)) : computer;
      },
      forgetChat: (sessionId) => browsers.forget(sessionId),
    },
    log,
    queue && sender ? { enqueue: (job) => queue.enqueue(job), ended: (task) => taskEnd(store, task), command: (taskId, command) => sender.send(taskId, command) } : null,
  );
  // A task whose every worker stopped ends in one of the servers, whose clients see it end.
  await queue?.whenLost(async (job, tries) => {
    // Taken from whichever worker may still run it unseen (frozen, cut off): it records nothing more.
    await takeLease(store.db, job.taskId, "server");
    const task = await store.getTask(job.taskId);
    if (task) await runtime.abandon(task, tries);
  });
  async function open(task: Task, signal: AbortSignal, recorder: RunRecorder): Promise<Computer> {
    if (task.computer === "desktop") return openDesktop(config, await desktopFenced(), network);
    if (task.computer === "extension") return extensions.open(task.id, task.extension_client_id, { jpegQuality, navigationTimeoutMs, secrets });
    if (!task.cdp) return browsers.open({ width, height, deviceScaleFactor, jpegQuality, navigationTimeoutMs, secrets, som: config.som }, { id: task.session_id, write: (cookies) => recorder.keepSignIns(task.session_id, cookies) }, signal);
    const url = allowedEndpoint(config, task.cdp.url);
    if (!url) throw new AppError("BROWSER_UNAVAILABLE", `The browser at ${task.cdp.url} is not in CDP_URL, ATTACH_CHROME or CDP_ALLOWED_URLS any more.`);
    const target = task.cdp.target_id ?? undefined;
    if (isRunningChrome(url)) return attachRunningChrome(browsers, url, target, { jpegQuality, navigationTimeoutMs, secrets });
    return browsers.attach(url, target, { jpegQuality, navigationTimeoutMs, secrets });
  }
  const chat = new ChatAgent(runtime, store, chatModel, live, log);
  let status: { at: number; of: Config; reply: Promise<ModelStatusReply> } | null = null;
  const modelStatus = () => {
    if (!status || status.of !== live.current || Date.now() - status.at > MODEL_STATUS_TTL_MS) status = { at: Date.now(), of: live.current, reply: modelReadiness(live.current) };
    return status.reply;
  };
  const modelSettings = new ModelSettingsFile(live, modelReadiness, log);
  return {
    modelStatus,
    modelSettings,
    config,
    live,
    serving: (port) => void serverPorts.add(port),
    installToken: token,
    log,
    store,
    browsers,
    extensions,
    runtime,
    chat,
    async close() {
      await Promise.all([chat.shutdown(), runtime.shutdown()]);
      extensions.close();
      await browsers.close();
      await store.close();
      await lock.release();
    },
  };
}

/** The computer, whose `close` first runs `first` (whatever it throws is the caller's to log). */
function closingAfter(computer: Computer, first: () => Promise<void>): Computer {
  return new Proxy(computer, {
    get(target, key) {
      if (key === "close") return () => first().catch(() => undefined).then(() => target.close());
      const value: unknown = Reflect.get(target, key, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}

/** The task as it ended, once the store says it did: a worker ran it. */
function taskEnd(store: Store, task: Task): Promise<Task> {
  return new Promise<Task>((resolve, reject) => {
    let settled = false;
    let leave: (() => void) | null = null;
    const look = () =>
      store.getTask(task.id).then((now) => {
        if (settled || !now || !isFinished(now.status)) return;
        settled = true;
        leave?.();
        resolve(now);
      }, reject);
    store.events
      .subscribe(task.session_id, 0, (event) => {
        if ("task_id" in event && event.task_id === task.id && ENDS.has(event.type)) void look();
      })
      .then((stop) => {
        if (settled) stop();
        else leave = stop;
      }, reject);
  });
}

const ENDS = new Set<string>(["task.completed", "task.failed", "task.stopped"]);

/** This machine's addresses on its network interfaces. */
function localAddresses(): string[] {
  return Object.values(networkInterfaces()).flatMap((list) => (list ?? []).map((i) => i.address));
}

export function createLogger(config: Config): Logger {
  return pino({ level: config.logLevel, base: undefined }, pino.destination(2));
}
