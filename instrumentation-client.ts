/**
 * Runs in the browser before the app's own modules (Next.js instrumentation-client). Zod compiles
 * object schemas with `new Function` unless told not to, and probes for it even then; under the
 * Content-Security-Policy (no 'unsafe-eval', lib/http/security-headers) that probe is a reported
 * violation. The browser parses small forms: the interpreter is fast enough.
 */
import { z } from "zod";

z.config({ jitless: true });
