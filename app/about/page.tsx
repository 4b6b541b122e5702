import type { Metadata } from "next";

export const metadata: Metadata = { title: "About" };

const DATA = [
  {
    name: "GSM8K",
    what: "Grade-school maths word problems with reference solutions and the recorded solutions of four models (Cobbe et al., 2021, arXiv:2110.14168). 200 test problems.",
    source: "openai/grade-school-math",
    licence: "MIT License, Copyright (c) 2021 OpenAI",
  },
  {
    name: "Banking77",
    what: "Banking77, PolyAI (Casanueva et al., 2020, Efficient Intent Detection with Dual Sentence Encoders). A subset: the first two test examples of each of the 77 intents.",
    source: "PolyAI-LDN/task-specific-datasets",
    licence: "CC BY 4.0 (https://creativecommons.org/licenses/by/4.0/)",
  },
  {
    name: "Berkeley Function Calling Leaderboard (BFCL)",
    what: "Function-calling cases with accepted arguments (Patil et al.), simple_python and parallel categories, and recorded calls of two leaderboard submissions (pull requests #1319 and #1308, not merged upstream).",
    source: "ShishirPatil/gorilla",
    licence: "Apache License 2.0",
  },
];

export default function AboutPage() {
  return (
    <article className="flex max-w-3xl flex-col gap-5">
      <h1 className="text-xl font-semibold">About Benchwork</h1>
      <p className="text-sm text-slate-700">
        Benchwork keeps a test library of cases and criteria for each prompt of an AI system, and runs benches that compare prompt revisions and models on them
        before you ship.
      </p>
      <section>
        <h2 className="text-base font-semibold">Data in the demo workspace</h2>
        <p className="mt-1 text-sm text-slate-700">
          The demo workspace is built from excerpts of public evaluation datasets. The files are modified excerpts: rows were selected and re-serialised, and
          some columns were renamed or derived. The full licence texts are in the repository&apos;s <code>licenses/</code> folder.
        </p>
        <ul className="mt-3 flex flex-col gap-3">
          {DATA.map((d) => (
            <li key={d.name} className="rounded-lg border border-slate-200 bg-white p-4 text-sm">
              <h3 className="font-semibold">{d.name}</h3>
              <p className="mt-1 text-slate-700">{d.what}</p>
              <p className="mt-1 text-slate-600">
                Source: <code>{d.source}</code> · Licence: {d.licence}
              </p>
            </li>
          ))}
        </ul>
      </section>
    </article>
  );
}
