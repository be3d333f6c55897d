// The S3_* settings: read from the environment into one `s3` object, checked together (a bucket for
// the other settings, both keys or neither), and the secret key masked like every other key.
import { describe, expect, it } from "vitest";
import { loadConfig } from "./load-config.ts";
import { redactor, secretsOf } from "./redact.ts";

const SECRET = "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY";

describe("the S3 settings", () => {
  it("are off by default: the files stay under the data dir", () => {
    expect(loadConfig({}).s3).toEqual({ region: "us-east-1", prefix: "", forcePathStyle: false });
  });

  it("read every S3_* variable, the prefix without its slashes", () => {
    const config = loadConfig({
      S3_BUCKET: "agent-files",
      S3_ENDPOINT: "http://127.0.0.1:9000",
      S3_REGION: "eu-central-1",
      S3_ACCESS_KEY_ID: "AKIAEXAMPLE",
      S3_SECRET_ACCESS_KEY: SECRET,
      S3_PREFIX: "/team/prod/",
      S3_FORCE_PATH_STYLE: "true",
    });
    expect(config.s3).toEqual({ bucket: "agent-files", endpoint: "http://127.0.0.1:9000", region: "eu-central-1", accessKeyId: "AKIAEXAMPLE", secretAccessKey: SECRET, prefix: "team/prod", forcePathStyle: true });
  });

  it("refuse settings without a bucket, one key without the other, and an endpoint that is no URL", () => {
    expect(() => loadConfig({ S3_ENDPOINT: "http://127.0.0.1:9000" })).toThrow(/need S3_BUCKET/);
    expect(() => loadConfig({ S3_BUCKET: "b", S3_ACCESS_KEY_ID: "AKIAEXAMPLE" })).toThrow(/S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY go together/);
    expect(() => loadConfig({ S3_BUCKET: "b", S3_ENDPOINT: "minio:9000" })).toThrow(/S3_ENDPOINT must be an http\(s\) URL/);
  });

  it("keep the secret key out of what is stored and shown", () => {
    const config = loadConfig({ S3_BUCKET: "b", S3_ACCESS_KEY_ID: "AKIAEXAMPLE", S3_SECRET_ACCESS_KEY: SECRET });
    expect(secretsOf(config)).toContain(SECRET);
    expect(redactor(config)({ message: `signature mismatch for ${SECRET}` })).toEqual({ message: "signature mismatch for [redacted]" });
  });
});
