import { describe, expect, it } from "vitest";
import { fixture } from "./fixtures/load";
import { parseHistory } from "./history";
import { applyMapping, type CaseDraft } from "./mapping";
import { parseFile } from "./parse";
import { suggestMapping } from "./suggest";

describe("conversation history", () => {
  it("reads a JSON array of text turns as replayable", () => {
    expect(
      parseHistory('[{"role":"user","content":"Hi"},{"role":"assistant","content":"Hello!\\nHow can I help?"},{"role":"system","content":"Be brief."}]'),
    ).toEqual({
      turns: [
        { role: "user", content: "Hi", replayable: true },
        { role: "assistant", content: "Hello!\nHow can I help?", replayable: true },
        { role: "system", content: "Be brief.", replayable: true },
      ],
    });
  });

  it("accepts an object holding messages", () => {
    expect(parseHistory('{"messages": [{"role": "user", "content": "x"}]}').turns).toEqual([{ role: "user", content: "x", replayable: true }]);
  });

  it("keeps tool calls, tool turns, images and unknown roles, marked not replayable with the original in raw", () => {
    const cell = JSON.stringify([
      { role: "assistant", content: null, tool_calls: [{ id: "c1", type: "function", function: { name: "f", arguments: "{}" } }] },
      { role: "tool", tool_call_id: "c1", content: "42" },
      {
        role: "user",
        content: [
          { type: "text", text: "Look" },
          { type: "image_url", image_url: { url: "https://x/y.png" } },
        ],
      },
      {
        role: "user",
        content: [
          { type: "text", text: "a" },
          { type: "text", text: "b" },
        ],
      },
      { role: "narrator", content: "Meanwhile" },
      { role: "function", name: "f", content: '{"ok":true}' },
      { role: "assistant", content: { text: "object content" } },
    ]);
    const { turns, error } = parseHistory(cell);
    expect(error).toBeUndefined();
    expect(turns).toEqual([
      {
        role: "assistant",
        content: "",
        replayable: false,
        note: "the turn contains tool calls",
        raw: '{"role":"assistant","content":null,"tool_calls":[{"id":"c1","type":"function","function":{"name":"f","arguments":"{}"}}]}',
      },
      {
        role: "tool",
        content: "42",
        replayable: false,
        note: "a tool turn cannot be replayed as text",
        raw: '{"role":"tool","tool_call_id":"c1","content":"42"}',
      },
      {
        role: "user",
        content: "Look",
        replayable: false,
        note: "the content has non-text parts (e.g. images)",
        raw: '{"role":"user","content":[{"type":"text","text":"Look"},{"type":"image_url","image_url":{"url":"https://x/y.png"}}]}',
      },
      {
        role: "user",
        content: "a\nb",
        replayable: false,
        note: "the content is a list of parts, not plain text",
        raw: '{"role":"user","content":[{"type":"text","text":"a"},{"type":"text","text":"b"}]}',
      },
      { role: "user", content: "Meanwhile", replayable: false, note: 'unknown role "narrator"', raw: '{"role":"narrator","content":"Meanwhile"}' },
      {
        role: "tool",
        content: '{"ok":true}',
        replayable: false,
        note: "a function turn cannot be replayed as text",
        raw: '{"role":"function","name":"f","content":"{\\"ok\\":true}"}',
      },
      {
        role: "assistant",
        content: '{"text":"object content"}',
        replayable: false,
        note: "the content is not plain text",
        raw: '{"role":"assistant","content":{"text":"object content"}}',
      },
    ]);
  });

  it("keeps extra fields of a text turn in raw, numbers exactly", () => {
    expect(parseHistory('[{"role":"User","content":"hi","name":"bob","seq":12345678901234567890}]').turns).toEqual([
      { role: "user", content: "hi", replayable: true, raw: '{"role":"User","content":"hi","name":"bob","seq":12345678901234567890}' },
    ]);
  });

  it("reads a plain transcript; lines without a prefix continue the turn", () => {
    const cell = "System: Be brief.\nuser: Write two lines.\nASSISTANT:Line one\nline two\n\n  user: Thanks\r\ntool: result";
    expect(parseHistory(cell)).toEqual({
      turns: [
        { role: "system", content: "Be brief.", replayable: true },
        { role: "user", content: "Write two lines.", replayable: true },
        { role: "assistant", content: "Line one\nline two", replayable: true },
        { role: "user", content: "Thanks", replayable: true },
        { role: "tool", content: "result", replayable: false, note: "a tool turn cannot be replayed as text" },
      ],
    });
  });

  it("keeps blank lines inside a turn", () => {
    expect(parseHistory("user: a\n\nb\nassistant: c").turns).toEqual([
      { role: "user", content: "a\n\nb", replayable: true },
      { role: "assistant", content: "c", replayable: true },
    ]);
  });

  it("returns no turns for an empty cell", () => {
    expect(parseHistory("  \n ")).toEqual({ turns: [] });
    expect(parseHistory("[]")).toEqual({ turns: [] });
  });

  it.each([
    ['[{"role":"user","content":"x"}', "it looks like JSON but is not valid JSON"],
    ['{"role":"user"}', "expected a JSON array of {role, content} turns"],
    ['["hello"]', "turn 1 is not an object"],
    ['[{"content":"no role"}]', 'turn 1 has no "role"'],
    ["just words", 'the text before the first turn has no "user:", "assistant:" or "system:" prefix'],
  ])("flags %j as malformed", (cell, error) => {
    expect(parseHistory(cell)).toEqual({ turns: [], error });
  });
});

describe("history fixture through the whole import", () => {
  it("keeps every turn of history.jsonl, marking what cannot be replayed", async () => {
    const t = await parseFile(fixture("jsonl/history.jsonl"), "history.jsonl");
    const r = applyMapping(t, suggestMapping(t.columns));
    const byKey: Record<string, CaseDraft> = Object.fromEntries(r.drafts.map((d) => [d.caseKey ?? "", d]));
    expect(byKey.h1.content.history.map((x) => [x.role, x.replayable])).toEqual([
      ["user", true],
      ["assistant", true],
    ]);
    expect(byKey.h2.content.history.map((x) => [x.role, x.replayable, x.note ?? null])).toEqual([
      ["user", true, null],
      ["assistant", false, "the turn contains tool calls"],
      ["tool", false, "a tool turn cannot be replayed as text"],
    ]);
    expect(byKey.h2.content.history[1].raw).toContain('"days\\":12345678901234567890');
    expect(byKey.h3.content.history.map((x) => [x.role, x.replayable, x.note ?? null])).toEqual([
      ["user", false, "the content has non-text parts (e.g. images)"],
      ["user", false, 'unknown role "narrator"'],
    ]);
    expect(byKey.h4.content.history).toEqual([
      { role: "system", content: "Be brief.", replayable: true },
      { role: "user", content: "Write two lines.", replayable: true },
      { role: "assistant", content: "Line one\nline two", replayable: true },
      { role: "user", content: "Thanks", replayable: true },
    ]);
    expect(byKey.h5.blocked).toBe(true);
    expect(byKey.h5.content.extra.messages).toBe('[{"role": "user", "content": "unterminated"}');
    expect(r.blockedRows).toEqual([5, 6]);
  });
});
