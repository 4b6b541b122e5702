import { describe, expect, it } from "vitest";
import type { PairedComparison } from "@/lib/bench/stats/paired";
import { benchMarkdown, type MarkdownBench } from "./markdown";

const cmp: PairedComparison = {
  n: 200,
  regressions: 8,
  fixes: 38,
  delta: 0.15,
  ci95: [0.08687, 0.21313],
  pValue: 9.24769992138863e-6,
  test: "exact McNemar",
  signTestPValue: null,
  verdict: "better",
  minDetectableEffect: 0.0944474416360213,
  unpaired: { candidate: 0, against: 0 },
};
const input: MarkdownBench = {
  benchId: 7,
  status: "finished",
  headline:
    "model-6b-verification beats model-6b-finetuning by +15.0 points (95 % CI +8.7 to +21.3, p < 0.001, 200 paired cases); 2 regressions block it (2 suspected)",
  recommendation: "Keep the baseline model-6b-finetuning: …",
  candidates: [
    {
      label: "model-6b-finetuning",
      baseline: true,
      casePassRate: { passed: 45, scored: 200, rate: 0.225, ci95: [0.1726, 0.2877] },
      comparisons: [],
      blockers: [],
    },
    {
      label: "model|6b-verification",
      baseline: false,
      casePassRate: { passed: 75, scored: 200, rate: 0.375, ci95: [0.3109, 0.4439] },
      comparisons: [{ against: "baseline", againstCandidate: "model-6b-finetuning", ...cmp }],
      blockers: [
        { caseKey: "gsm8k-0001", label: "Exact match", against: "baseline", status: "suspected" },
        { caseKey: "gsm8k-`0002`", label: "Exact match", against: "baseline", status: "confirmed" },
      ],
    },
  ],
};

describe("benchMarkdown", () => {
  const md = benchMarkdown(input);

  it("leads with the evidence sentence, then the recommendation", () => {
    const lines = md.split("\n");
    expect(lines[0]).toBe("### Benchwork bench #7 (finished)");
    expect(md).toContain(`**${input.headline}**\n\nKeep the baseline model-6b-finetuning: …`);
  });

  it("has a table row per comparison with the pass rate's interval, the difference's interval, p, verdict and blockers (labels escaped)", () => {
    expect(md).toContain("| Candidate | Case pass rate (95 % CI) | vs | Δ points (95 % CI) | p | Verdict | Blocking regressions |");
    expect(md).toContain("| model-6b-finetuning (baseline) | 22.5 % (95 % CI 17.3–28.8) 45/200 trials | — | — | — | — | 0 |");
    expect(md).toContain(
      "| model\\|6b-verification | 37.5 % (95 % CI 31.1–44.4) 75/200 trials | baseline model-6b-finetuning | +15.0 (+8.7 to +21.3) | p < 0.001 (exact McNemar, 200 paired cases) | better | 2 (1 confirmed, 1 suspected) |",
    );
  });

  it("lists the blocking regressions with their status", () => {
    expect(md).toContain("<summary>Blocking regressions (2)</summary>");
    expect(md).toContain("| model\\|6b-verification | `gsm8k-0001` | Exact match | baseline | suspected |");
    // A backtick in a case key cannot close its code span early.
    expect(md).toContain("| model\\|6b-verification | `` gsm8k-`0002` `` | Exact match | baseline | confirmed |");
  });

  it("shows the reason of a regression confirmed as a deterministic replay, in the counts, the list and a note", () => {
    const replay = benchMarkdown({
      ...input,
      candidates: [
        input.candidates[0],
        {
          ...input.candidates[1],
          blockers: [
            { caseKey: "gsm8k-0001", label: "Exact match", against: "baseline", status: "confirmed", reason: "deterministic replay" },
            { caseKey: "gsm8k-0002", label: "Exact match", against: "baseline", status: "confirmed", reason: null },
          ],
        },
      ],
    });
    expect(replay).toContain("| better | 2 (1 confirmed, 1 confirmed by deterministic replay) |");
    expect(replay).toContain("| model\\|6b-verification | `gsm8k-0001` | Exact match | baseline | confirmed (deterministic replay) |");
    expect(replay).toContain("| model\\|6b-verification | `gsm8k-0002` | Exact match | baseline | confirmed |");
    expect(replay).toContain(
      "A deterministic replay is a recorded answer against a recorded reference on a code check: a rerun replays the same answers, so it is confirmed without one.",
    );
    expect(md).not.toContain("deterministic replay");
  });

  it("says what a passing case is, and has no blocking section when nothing blocks", () => {
    expect(md).toContain("A case passes when all its scored checks pass");
    const clean = benchMarkdown({ ...input, candidates: input.candidates.map((c) => ({ ...c, blockers: [] })) });
    expect(clean).not.toContain("Blocking regressions (");
  });

  it("keeps a long list of blockers under GitHub's comment limit, saying how many were left out", () => {
    const many = Array.from({ length: 5000 }, (_, i) => ({
      caseKey: `case-${i}`,
      label: "Exact match".repeat(5),
      against: "baseline" as const,
      status: "suspected" as const,
    }));
    const big = benchMarkdown({ ...input, candidates: [input.candidates[0], { ...input.candidates[1], blockers: many }] });
    expect(big.length).toBeLessThan(65_536);
    expect(big).toContain("… and 4,900 more (see the JSON output)");
    expect(big).toContain("<summary>Blocking regressions (5,000)</summary>");
  });

  it("cannot open an HTML comment or tag from a label (it would hide the rest of the comment), yet keeps 'p < 0.001' readable", () => {
    const hostile = benchMarkdown({
      ...input,
      headline: "<!-- a beats b by +1.0 points (95 % CI +0.5 to +1.5, p < 0.001, 9 paired cases)",
      candidates: [
        { ...input.candidates[1], label: "<!--x", blockers: [{ caseKey: "</details>", label: "<img src=x>", against: "baseline", status: "suspected" }] },
      ],
    });
    expect(hostile).not.toMatch(/<!--|<img/);
    // Inside a code span HTML is literal text.
    expect(hostile).toContain("| `</details>` |");
    expect(hostile).toContain("**&lt;!-- a beats b by +1.0 points (95 % CI +0.5 to +1.5, p < 0.001, 9 paired cases)**");
    expect(hostile).toContain("| &lt;!--x | 37.5 %");
    expect(hostile).toContain("| &lt;img src=x> |");
  });

  it("escapes * and _ in a model name so it is not Markdown emphasis (in the sentence, the recommendation and the tables)", () => {
    const starry = benchMarkdown({
      ...input,
      headline: "gpt_4o*mini beats my_model by +1.0 points",
      recommendation: "Recommended: gpt_4o*mini (50.0% of 2 scored checks).",
      candidates: [
        { ...input.candidates[1], label: "gpt_4o*mini", blockers: [{ caseKey: "c_1", label: "a *b* _c_", against: "baseline", status: "suspected" }] },
      ],
    });
    expect(starry).toContain("**gpt\\_4o\\*mini beats my\\_model by +1.0 points**");
    expect(starry).toContain("Recommended: gpt\\_4o\\*mini (50.0% of 2 scored checks).");
    expect(starry).toContain("| gpt\\_4o\\*mini | 37.5 %");
    expect(starry).toContain("| gpt\\_4o\\*mini | `c_1` | a \\*b\\* \\_c\\_ | baseline | suspected |");
  });

  it("lists the regressions a rerun cleared and the trials that ended as errors (r1.md left both out)", () => {
    const r1 = benchMarkdown({
      ...input,
      candidates: [
        { ...input.candidates[0], erroredTrials: 0, trials: 60 },
        {
          ...input.candidates[1],
          label: "TB candidate",
          erroredTrials: 1,
          trials: 60,
          cleared: [{ caseKey: "banking77-001", label: "Intent label", against: "baseline", status: "cleared" }],
        },
      ],
      errors: [{ trials: 1, message: "rate_limit (HTTP 429): Rate limit reached for requests" }],
    });
    expect(r1).toContain("<summary>Cleared by a rerun: flaky, not blocking (1)</summary>");
    expect(r1).toContain("| TB candidate | `banking77-001` | Intent label | baseline | flaky — cleared |");
    expect(r1).toContain("Trials that ended as errors (left out of the pass rates, not counted as failures): TB candidate 1 of 60.");
    expect(r1).toContain("- 1 × rate\\_limit (HTTP 429): Rate limit reached for requests");
    expect(md).not.toContain("Cleared by a rerun");
    expect(md).not.toContain("ended as errors");
  });
});
