// Imported first by the worker: zod must not try `new Function` (its fast path), which an
// extension's Content-Security-Policy forbids and reports. Its schemas read this when built.
import { z } from "zod";

z.config({ jitless: true });
