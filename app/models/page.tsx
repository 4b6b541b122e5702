import type { Metadata } from "next";
import { getDb } from "@/db/client";
import { modelConfigRows } from "@/server/models";
import { ModelsView } from "@/components/models/models-view";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Models" };

export default async function ModelsPage() {
  // Only whether an allowed key variable is set travels to the browser, never its value.
  const rows = await modelConfigRows(getDb(), process.env);
  return (
    <div className="flex flex-col gap-4">
      <div>
        <h1 className="text-xl font-semibold">Models</h1>
        <p className="mt-1 max-w-3xl text-sm text-slate-600">
          Model configurations that benches run as candidates or use as judges: OpenAI, Anthropic, or any OpenAI-compatible server (Ollama, vLLM, llama.cpp, LM
          Studio). API keys are read from the server&apos;s environment variables and are never stored, logged or sent to the browser.
        </p>
      </div>
      <ModelsView rows={rows} />
    </div>
  );
}
