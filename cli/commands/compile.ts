/**
 * `benchwork compile [CONFIG] [--out PATH] [--json]` (issue #6): resolves every module of a
 * benchmark repository and writes the frozen release (JSON; default `release.json` next to the
 * config). CONFIG is benchmark.config.ts or its folder (default: the working folder).
 * Exit 0 when it compiled and was written; 1 when it does not compile (every problem is printed,
 * naming its file and data row) or the file cannot be written; 2 on a usage error (no config).
 */
import path from "node:path";
import { releaseJson } from "@/lib/suite/compile";
import { CliError, type Io } from "../io";
import { loadForCli } from "../suite/common";
import { mkdirSync, writeFileSync } from "node:fs";
import { counted } from "@/lib/bench/counted";

/** Options of {@link compileCommand}. */
export interface CompileOptions {
  out?: string;
  json?: boolean;
}

/** Runs the command; returns the exit code. */
export async function compileCommand(configArg: string | undefined, o: CompileOptions, io: Io): Promise<number> {
  const b = await loadForCli(configArg);
  const release = b.compiled.release;
  const out = path.resolve(o.out ?? path.join(b.root, "release.json"));
  try {
    mkdirSync(path.dirname(out), { recursive: true });
    writeFileSync(out, releaseJson(release));
  } catch (e) {
    throw new CliError(`cannot write ${out}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`, 1);
  }
  if (o.json) {
    io.out(
      JSON.stringify({
        file: out,
        contentHash: release.contentHash,
        title: release.title,
        version: release.version,
        evals: release.evals.length,
        cases: release.cases.length,
        tools: release.tools.length,
      }),
    );
  } else {
    io.out(
      `compiled ${release.title} ${release.version}: ${counted(release.cases.length, "case")} from ${counted(release.evals.length, "eval")}, ${counted(release.tools.length, "tool")}`,
    );
    for (const e of release.evals) io.out(`  ${e.id} (${e.module}${e.dataFile ? `, ${e.dataFile}` : ""}): ${e.caseCount} case${e.caseCount === 1 ? "" : "s"}`);
    io.out(`release ${release.contentHash} → ${out}`);
  }
  return 0;
}
