// `npm run worker`: a bench worker as its own process on BENCHWORK_DB (server/worker-main.ts).
// The TypeScript is bundled with esbuild first (scripts/bundle.mjs, ~0.5 s): a worker loaded
// through tsx carries its module-hooks thread and transform caches, ~40 MB more (issue #5 memory).
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { bundle } from "./bundle.mjs";

const root = fileURLToPath(new URL("..", import.meta.url));
process.env.BENCHWORK_ROOT ||= path.resolve(root);
const file = await bundle({ root: process.env.BENCHWORK_ROOT, name: "worker", contents: `import "./server/worker-main.ts";\n` });
await import(pathToFileURL(file).href);
