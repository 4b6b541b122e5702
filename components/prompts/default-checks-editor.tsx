"use client";

import { useRouter } from "next/navigation";
import { useState, useTransition } from "react";
import { savePromptDefaultChecksAction } from "@/app/systems/[systemId]/library/actions";
import { EvaluatorsEditor } from "@/components/evaluators/evaluators-editor";
import { Button } from "@/components/ui/button";
import { useToast } from "@/components/ui/toast";
import { useRoleAtLeast } from "@/components/auth/role-context";
import { describeEvaluator } from "@/lib/evaluators/describe";

type Props = { systemId: string; promptId: number; promptName: string; checks: unknown[] };

/**
 * A prompt's default checks (issue 15): the checks every case of the prompt that has none of its
 * own inherits. Lists and edits them with the evaluator editor; Save validates on the server.
 * Self-contained so the Prompt page can embed it (it sits on the Criteria tab until then).
 * Below the editor role (issue 19) it only lists them: the save action would refuse anyway.
 */
export function DefaultChecksEditor(props: Props) {
  return useRoleAtLeast("editor") ? <EditableDefaultChecks {...props} /> : <DefaultChecksList promptName={props.promptName} checks={props.checks} />;
}

function Heading({ promptName }: { promptName: string }) {
  return (
    <div>
      <h2 id="default-checks-title" className="text-sm font-semibold text-slate-900">
        Default checks of {promptName}
      </h2>
      <p className="mt-0.5 text-xs text-slate-500">
        Every case of {promptName} that has no check of its own inherits these (a bench pins them when it starts). Checks that compare with the expected result
        use each case&apos;s own.
      </p>
    </div>
  );
}

/** The checks, read-only, for a viewer. */
function DefaultChecksList({ promptName, checks }: { promptName: string; checks: unknown[] }) {
  return (
    <section aria-labelledby="default-checks-title" className="flex flex-col gap-3 rounded-lg border border-slate-200 bg-white p-4">
      <Heading promptName={promptName} />
      {checks.length ? (
        <ul className="list-disc pl-5 text-sm text-slate-700">
          {checks.map((c, i) => (
            <li key={i}>{describeEvaluator(c)}</li>
          ))}
        </ul>
      ) : (
        <p className="text-sm text-slate-500">None.</p>
      )}
      <p className="text-xs text-slate-500">Changing them needs the editor role.</p>
    </section>
  );
}

function EditableDefaultChecks({ systemId, promptId, promptName, checks }: Props) {
  const router = useRouter();
  const toast = useToast();
  const [specs, setSpecs] = useState<unknown[]>(checks);
  const [error, setError] = useState<string | null>(null);
  const [pending, startTransition] = useTransition();
  const changed = JSON.stringify(specs) !== JSON.stringify(checks);
  const save = () =>
    startTransition(async () => {
      setError(null);
      const r = await savePromptDefaultChecksAction({ systemId, promptId, checks: specs });
      if (r.ok) {
        toast(`Saved the default checks of ${promptName}`);
        router.refresh();
      } else setError(r.error.message);
    });
  return (
    <section aria-labelledby="default-checks-title" className="flex flex-col gap-3 rounded-lg border border-slate-200 bg-white p-4">
      <Heading promptName={promptName} />
      <EvaluatorsEditor systemId={systemId} specs={specs} onChange={setSpecs} errors={{}} caseInput="" caseExpected="" />
      {error ? (
        <p role="alert" className="rounded-md border border-red-300 bg-red-50 px-3 py-2 text-sm text-red-800">
          {error}
        </p>
      ) : null}
      <div>
        <Button variant="primary" onClick={save} disabled={pending || !changed}>
          {pending ? "Saving…" : "Save default checks"}
        </Button>
      </div>
    </section>
  );
}
