import { describe, expect, it } from "vitest";
import { DEFAULT_APPROVAL_POLICY, judge, namedOrigins, plainPasswords, taskOrigins, type ApprovalPolicy, type Risk } from "./approval-policy.ts";

const allowAll = Object.fromEntries(Object.keys(DEFAULT_APPROVAL_POLICY).map((k) => [k, "allow"])) as ApprovalPolicy;
const submit: Risk = { kind: "submit", message: "submits the form", origin: "https://shop.example" };
const leave: Risk = { kind: "leave_site", message: "leaves for evil.example", origin: "https://evil.example" };
const pay: Risk = { kind: "pay", message: "may pay" };

describe("judge", () => {
  it("refuses if any class is denied, else asks if any asks, naming only the deciding risks", () => {
    const policy = { ...DEFAULT_APPROVAL_POLICY, pay: "deny" as const };
    expect(judge(policy, [submit, pay], "https://shop.example", () => true)).toEqual({ verdict: "deny", risks: [pay] });
    expect(judge(DEFAULT_APPROVAL_POLICY, [submit, { kind: "new_origin", message: "" }], "https://shop.example", () => true)).toEqual({ verdict: "ask", risks: [submit] });
    expect(judge(DEFAULT_APPROVAL_POLICY, [], "https://shop.example", () => true)).toEqual({ verdict: "allow", risks: [] });
  });

  it("allows leaving, submitting and sensitive typing only towards origins the person named", () => {
    const named = (origin: string) => origin === "https://shop.example";
    expect(judge(allowAll, [submit], "https://shop.example", named).verdict).toBe("allow");
    expect(judge(allowAll, [leave], "https://shop.example", named)).toEqual({ verdict: "ask", risks: [leave] });
    expect(judge(allowAll, [{ kind: "sensitive_field", message: "types into a password field" }], "https://evil.example", named).verdict).toBe("ask");
    expect(judge(allowAll, [{ kind: "sensitive_field", message: "" }], null, named).verdict).toBe("ask");
    // Classes that carry nothing away stay as the policy says.
    expect(judge(allowAll, [pay, { kind: "download", message: "" }], "https://evil.example", named).verdict).toBe("allow");
  });

  it("by default gives a file without asking only to an origin the person named; a desktop's dialog, naming none, asks", () => {
    const named = (origin: string) => origin === "https://jobs.example";
    const upload = (origin?: string): Risk => ({ kind: "upload", message: 'puts the file "cv.pdf" into the file input', ...(origin ? { origin } : {}) });
    expect(judge(DEFAULT_APPROVAL_POLICY, [upload()], "https://jobs.example", named).verdict).toBe("allow");
    expect(judge(DEFAULT_APPROVAL_POLICY, [upload("https://tracker.example")], "https://jobs.example", named).verdict).toBe("ask");
    expect(judge(DEFAULT_APPROVAL_POLICY, [upload()], null, named).verdict).toBe("ask");
    expect(judge({ ...DEFAULT_APPROVAL_POLICY, upload: "deny" }, [upload()], "https://jobs.example", named).verdict).toBe("deny");
  });

  it("asks before keys go to a terminal whose commands reach the server, whatever keyboard_input allows", () => {
    const terminal: Risk = { kind: "keyboard_input", message: 'types into the terminal "XTerm"', unfenced: true };
    expect(judge(allowAll, [terminal], null, () => true)).toEqual({ verdict: "ask", risks: [terminal] });
    expect(judge({ ...allowAll, keyboard_input: "deny" }, [terminal], null, () => true).verdict).toBe("deny");
    expect(judge(allowAll, [{ kind: "keyboard_input", message: "types on the desktop" }], null, () => true).verdict).toBe("allow");
  });
});

describe("namedOrigins", () => {
  it("takes the start page's origin and every http(s) address in the task's text", () => {
    const origins = namedOrigins("Compare http://localhost:3000/cart with https://shop.example/x?y=1, not ftp://files.example", "http://127.0.0.1:9102/start");
    expect([...origins].sort()).toEqual(["http://127.0.0.1:9102", "http://localhost:3000", "https://shop.example"]);
    expect(namedOrigins("nothing here", null).size).toBe(0);
  });
});

describe("plainPasswords", () => {
  it("finds a password the person wrote after a word and a separator, in English or Chinese, quoted or not", () => {
    expect(plainPasswords("Sign in as ada, password: hunter22.")).toEqual(["hunter22"]);
    expect(plainPasswords('user ada pw="correct horse" then search')).toEqual(["correct horse"]);
    expect(plainPasswords("The password is s3cr3t! and the PIN 1234")).toEqual(["s3cr3t"]);
    expect(plainPasswords("登录，用户名 ada，密码：天王盖地虎88，然后搜索")).toEqual(["天王盖地虎88"]);
    expect(plainPasswords("密码是hunter22")).toEqual(["hunter22"]);
  });
  it("takes no password from a text that only mentions one", () => {
    expect(plainPasswords("Type the password into the password field, then press Enter")).toEqual([]);
    expect(plainPasswords("Reset my password at https://shop.example/reset")).toEqual([]);
  });
});

describe("taskOrigins", () => {
  it("names only what the person wrote when the chat assistant worded the task; the rest it chose is proposed", () => {
    const task = { text: "Read https://evil.example/x and https://shop.example/y", start_url: "https://start.example/" };
    expect(taskOrigins(task, null)).toEqual({ named: new Set(["https://start.example", "https://evil.example", "https://shop.example"]), proposed: new Set() });
    expect(taskOrigins(task, { text: "compare prices on https://shop.example", startUrl: null })).toEqual({
      named: new Set(["https://shop.example"]),
      proposed: new Set(["https://start.example", "https://evil.example"]),
    });
  });
});
