// Uploads a large payload (a screenshot, a page's HTML, long reader text) to the server's artifact
// service and returns its id and download address; the action result carries only those.
import { ARTIFACT_MAX_BYTES, EXTENSION_ARTIFACTS_PATH } from "../../../src/protocol/extension.ts";
import type { Settings } from "../shared/settings.ts";
import { ActionError, errorMessage } from "./action-error.ts";

export interface Artifact {
  artifactId: string;
  url: string;
}

/**
 * @example const { artifactId, url } = await uploadArtifact(settings, jpegBytes, "image/jpeg");
 */
export async function uploadArtifact(settings: Settings, body: Uint8Array | string, contentType: string): Promise<Artifact> {
  const bytes = typeof body === "string" ? new TextEncoder().encode(body) : body;
  if (bytes.byteLength > ARTIFACT_MAX_BYTES) {
    throw new ActionError("ACTION_FAILED", `The ${contentType} payload is ${mb(bytes.byteLength)}, over the artifact limit of ${mb(ARTIFACT_MAX_BYTES)}.`, false);
  }
  const endpoint = `${new URL(settings.serverUrl).origin}${EXTENSION_ARTIFACTS_PATH}`;
  let response: Response;
  try {
    const signIn: Record<string, string> = settings.signIn ? { authorization: `Bearer ${settings.signIn}` } : {};
    response = await fetch(endpoint, { method: "POST", headers: { "x-easyagentcu-token": settings.token, "content-type": contentType, ...signIn }, body: bytes as BufferSource });
  } catch (err) {
    throw new ActionError("ACTION_FAILED", `Could not upload the artifact to ${endpoint}: ${errorMessage(err)}`, true);
  }
  if (!response.ok) {
    const detail = (await response.text().catch(() => "")).slice(0, 300);
    throw new ActionError("ACTION_FAILED", `The server refused the artifact upload (HTTP ${response.status}${detail ? `: ${detail}` : ""}).`, response.status >= 500);
  }
  const json = (await response.json().catch(() => ({}))) as { artifactId?: unknown; url?: unknown };
  if (typeof json.artifactId !== "string") throw new ActionError("ACTION_FAILED", `The artifact service at ${endpoint} answered without an artifactId.`, false);
  const url = typeof json.url === "string" ? new URL(json.url, settings.serverUrl).toString() : `${endpoint}/${encodeURIComponent(json.artifactId)}`;
  return { artifactId: json.artifactId, url };
}

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
