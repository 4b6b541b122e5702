/**
 * How well a judge agrees with human reviewers on one criterion (issue 18): the 2 × 2 table of
 * judge verdict × human verdict over reviewed trials, raw agreement, Cohen's κ (1960), and the
 * judge's false-pass and false-fail rates, each with a 95 % interval: Wilson (1927) for the rates,
 * and for κ the large-sample standard error of Fleiss, Cohen & Everitt (1969) — the one in Fleiss,
 * Levin & Paik, "Statistical Methods for Rates and Proportions", 3rd ed., eq. 18.15 — as κ ± 1.96·SE,
 * clipped to [−1, 1].
 * Only trials where the judge recorded `passed` or `failed` and the human said `pass` or `fail` count:
 * an unscored or errored judge check, or a human "can't tell", says nothing about agreement.
 */
import { Z_975 } from "../bench/stats/distributions";
import { wilsonInterval, type RateInterval } from "../bench/stats/wilson";

/** One reviewed check: what the judge recorded and what the reviewer said. */
export interface ReviewedPair {
  judge: "passed" | "failed" | "unscored" | "error";
  human: "pass" | "fail" | "cant_tell";
}

/** The 2 × 2 table. `falsePass`: the judge passed what the human failed; `falseFail`: the reverse. */
export interface AgreementTable {
  bothPass: number;
  falsePass: number;
  falseFail: number;
  bothFail: number;
}

/** Calibration figures of one criterion's judge. Rates in [0, 1]; null when undefined for the data. */
export interface Calibration {
  /** Trials counted (both verdicts pass/fail). */
  reviewed: number;
  table: AgreementTable;
  /** Share of reviewed trials where judge and human agree, with its Wilson interval. */
  agreement: RateInterval;
  /** Cohen's κ with its 95 % interval; null when chance agreement is 1 (every verdict the same) or nothing was reviewed. */
  kappa: { value: number; se: number; ci95: [number, number] } | null;
  /** Of the trials the human failed, the share the judge passed. */
  falsePassRate: RateInterval;
  /** Of the trials the human passed, the share the judge failed. */
  falseFailRate: RateInterval;
}

/** The 2 × 2 table of the pairs that count (see the module comment). */
export function agreementTable(pairs: Iterable<ReviewedPair>): AgreementTable {
  const t: AgreementTable = { bothPass: 0, falsePass: 0, falseFail: 0, bothFail: 0 };
  for (const p of pairs) {
    if ((p.judge !== "passed" && p.judge !== "failed") || p.human === "cant_tell") continue;
    if (p.judge === "passed") t[p.human === "pass" ? "bothPass" : "falsePass"]++;
    else t[p.human === "pass" ? "falseFail" : "bothFail"]++;
  }
  return t;
}

/**
 * Cohen's κ of a 2 × 2 table with the Fleiss–Cohen–Everitt (1969) large-sample standard error:
 * SE = √(A + B − C) / ((1 − pₑ)√n), with A = Σᵢ pᵢᵢ[1 − (pᵢ. + p.ᵢ)(1 − κ)]²,
 * B = (1 − κ)² Σᵢ≠ⱼ pᵢⱼ(p.ᵢ + pⱼ.)², C = [κ − pₑ(1 − κ)]² (rows: judge, columns: human).
 * @returns null when n = 0 or pₑ = 1 (κ is undefined)
 */
export function cohensKappa(t: AgreementTable): Calibration["kappa"] {
  const n = t.bothPass + t.falsePass + t.falseFail + t.bothFail;
  if (n === 0) return null;
  // p[i][j]: judge i, human j; 0 = pass, 1 = fail.
  const p = [
    [t.bothPass / n, t.falsePass / n],
    [t.falseFail / n, t.bothFail / n],
  ];
  const row = [p[0][0] + p[0][1], p[1][0] + p[1][1]];
  const col = [p[0][0] + p[1][0], p[0][1] + p[1][1]];
  const po = p[0][0] + p[1][1];
  const pe = row[0] * col[0] + row[1] * col[1];
  if (pe >= 1 - 1e-12) return null;
  const k = (po - pe) / (1 - pe);
  let a = 0;
  for (let i = 0; i < 2; i++) a += p[i][i] * (1 - (row[i] + col[i]) * (1 - k)) ** 2;
  const b = (1 - k) ** 2 * (p[0][1] * (col[0] + row[1]) ** 2 + p[1][0] * (col[1] + row[0]) ** 2);
  const c = (k - pe * (1 - k)) ** 2;
  const se = Math.sqrt(Math.max(0, a + b - c)) / ((1 - pe) * Math.sqrt(n));
  return { value: k, se, ci95: [Math.max(-1, k - Z_975 * se), Math.min(1, k + Z_975 * se)] };
}

/** The calibration figures of one criterion from its reviewed pairs. */
export function calibrate(pairs: Iterable<ReviewedPair>): Calibration {
  const t = agreementTable(pairs);
  const n = t.bothPass + t.falsePass + t.falseFail + t.bothFail;
  return {
    reviewed: n,
    table: t,
    agreement: wilsonInterval(t.bothPass + t.bothFail, n),
    kappa: cohensKappa(t),
    falsePassRate: wilsonInterval(t.falsePass, t.falsePass + t.bothFail),
    falseFailRate: wilsonInterval(t.falseFail, t.falseFail + t.bothPass),
  };
}
