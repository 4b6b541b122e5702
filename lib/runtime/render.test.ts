import { describe, expect, it } from "vitest";
import { emptyCaseContent, type CaseContent, type Turn } from "@/lib/library/case-content";
import { fillTemplate, renderPrompt, templateVariables, unreplayableReason } from "./render";

function content(partial: Partial<CaseContent>): CaseContent {
  return { ...emptyCaseContent(), ...partial };
}

describe("templateVariables", () => {
  it("lists names in order of first use, without duplicates, with whitespace inside braces", () => {
    expect(templateVariables("Hi {{name}}, order {{ order.id }} for {{name}} ({{\tcustomer-tier\n}}) {{x_1}}")).toEqual([
      "name",
      "order.id",
      "customer-tier",
      "x_1",
    ]);
  });

  it("ignores things between braces that are not variable names", () => {
    expect(templateVariables("{{#if x}} {{ a b }} {{}} { {y} } {single}")).toEqual([]);
  });

  it("returns [] for a prompt without placeholders", () => {
    expect(templateVariables("You are a helpful assistant.")).toEqual([]);
  });
});

describe("fillTemplate", () => {
  it("substitutes in a single pass: a value containing a placeholder is not expanded again", () => {
    const r = fillTemplate(
      "A={{a}} B={{b}}",
      new Map([
        ["a", "{{b}}"],
        ["b", "2"],
      ]),
    );
    expect(r.text).toBe("A={{b}} B=2");
    expect(r.missingVariables).toEqual([]);
  });

  it("treats an empty value as a value", () => {
    expect(fillTemplate("[{{a}}]", new Map([["a", ""]]))).toEqual({ text: "[]", missingVariables: [] });
  });

  it("inserts values with $ characters literally", () => {
    expect(fillTemplate("cost {{p}}", new Map([["p", "$1 $& $$"]])).text).toBe("cost $1 $& $$");
  });
});

describe("renderPrompt", () => {
  it("fills variables from the case and sends the input as the only user message", () => {
    const r = renderPrompt({
      systemPrompt: "You help {{ customer }} with order {{order_id}}.",
      content: content({
        input: "Where is my order?",
        variables: [
          { name: "customer", value: "Ada" },
          { name: "order_id", value: "o-42" },
        ],
      }),
    });
    expect(r.system).toBe("You help Ada with order o-42.");
    expect(r.messages).toEqual([{ role: "user", content: "Where is my order?" }]);
    expect(r.missingVariables).toEqual([]);
    expect(r.unreplayable).toEqual([]);
    expect(r.inputSent).toBe(true);
  });

  it("reports a missing variable and leaves its placeholder as written", () => {
    const r = renderPrompt({
      systemPrompt: "Tier: {{ tier }}. Name: {{name}}. Again {{tier}}.",
      content: content({ input: "hi", variables: [{ name: "name", value: "Bo" }] }),
    });
    expect(r.system).toBe("Tier: {{ tier }}. Name: Bo. Again {{tier}}.");
    expect(r.missingVariables).toEqual(["tier"]);
  });

  it("does not substitute inside the input or history (they are data)", () => {
    const r = renderPrompt({
      systemPrompt: "S",
      content: content({
        input: "literal {{name}}",
        variables: [{ name: "name", value: "X" }],
        history: [{ role: "user", content: "earlier {{name}}" }],
      }),
    });
    expect(r.messages).toEqual([
      { role: "user", content: "earlier {{name}}" },
      { role: "user", content: "literal {{name}}" },
    ]);
  });

  it("replays text history in order before the input and appends system turns to the system prompt", () => {
    const history: Turn[] = [
      { role: "system", content: "Always answer in French." },
      { role: "user", content: "Bonjour" },
      { role: "assistant", content: "Bonjour ! Comment puis-je aider ?" },
      { role: "system", content: "Be brief." },
      { role: "user", content: "Ma commande ?" },
      { role: "assistant", content: "Quel numéro ?" },
    ];
    const r = renderPrompt({ systemPrompt: "You are Support.", content: content({ input: "o-42", history }) });
    expect(r.system).toBe("You are Support.\n\nAlways answer in French.\n\nBe brief.");
    expect(r.messages).toEqual([
      { role: "user", content: "Bonjour" },
      { role: "assistant", content: "Bonjour ! Comment puis-je aider ?" },
      { role: "user", content: "Ma commande ?" },
      { role: "assistant", content: "Quel numéro ?" },
      { role: "user", content: "o-42" },
    ]);
    expect(r.unreplayable).toEqual([]);
  });

  it("uses system turns alone when the prompt has no system text", () => {
    const r = renderPrompt({ systemPrompt: "", content: content({ input: "q", history: [{ role: "system", content: "Only this." }] }) });
    expect(r.system).toBe("Only this.");
  });

  it("does not send tool, non-replayable, non-text and unknown-role turns, and reports each with its reason", () => {
    const history = [
      { role: "user", content: "Check order o-1" },
      { role: "assistant", content: "", replayable: false, note: "assistant tool call", raw: '{"tool_calls":[]}' },
      { role: "tool", content: '{"status":"shipped"}' },
      { role: "user", content: "[image]", raw: '{"type":"image_url"}' },
      { role: "function", content: "legacy" },
      { role: "assistant", content: "It shipped." },
      { role: "user", content: "kept despite raw", raw: "{}", replayable: true },
    ] as Turn[];
    const r = renderPrompt({ systemPrompt: "S", content: content({ input: "Thanks", history }) });
    expect(r.messages).toEqual([
      { role: "user", content: "Check order o-1" },
      { role: "assistant", content: "It shipped." },
      { role: "user", content: "kept despite raw" },
      { role: "user", content: "Thanks" },
    ]);
    expect(r.unreplayable).toEqual([
      { index: 1, role: "assistant", reason: "turn is marked not replayable (assistant tool call)" },
      { index: 2, role: "tool", reason: "tool turns cannot be replayed" },
      { index: 3, role: "user", reason: "non-text turn cannot be replayed" },
      { index: 4, role: "function", reason: 'unknown role "function" cannot be replayed' },
    ]);
  });

  it("does not send a blank input", () => {
    const r = renderPrompt({ systemPrompt: "S", content: content({ input: "  ", history: [{ role: "user", content: "q" }] }) });
    expect(r.messages).toEqual([{ role: "user", content: "q" }]);
    expect(r.inputSent).toBe(false);
  });

  it("uses the first value when a variable name is repeated", () => {
    const r = renderPrompt({
      systemPrompt: "{{a}}",
      content: content({
        input: "q",
        variables: [
          { name: "a", value: "first" },
          { name: "a", value: "second" },
        ],
      }),
    });
    expect(r.system).toBe("first");
  });
});

describe("unreplayableReason", () => {
  it("returns null for plain text turns", () => {
    expect(unreplayableReason({ role: "user", content: "hi" })).toBeNull();
    expect(unreplayableReason({ role: "assistant", content: "", replayable: true })).toBeNull();
  });
  it("uses the note, or says non-text content, for a turn marked not replayable", () => {
    expect(unreplayableReason({ role: "user", content: "x", replayable: false })).toBe("turn is marked not replayable (non-text content)");
  });
});
