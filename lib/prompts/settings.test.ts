import { describe, expect, it } from "vitest";
import { effectiveCallSettings, promptModelSettingsSchema } from "./settings";

describe("effectiveCallSettings (the revision wins over the configuration's defaults)", () => {
  it("takes every setting the revision gives, even when the configuration has its own", () => {
    expect(
      effectiveCallSettings(
        { temperature: 0, maxOutputTokens: 400, stopSequences: ["END"], providerOptions: { openai: { reasoningEffort: "low" } } },
        { temperature: 0.7, maxOutputTokens: 50 },
      ),
    ).toEqual({
      temperature: 0,
      maxOutputTokens: 400,
      stopSequences: ["END"],
      providerOptions: { openai: { reasoningEffort: "low" } },
    });
  });
  it("uses the configuration's value only where the revision is silent", () => {
    expect(effectiveCallSettings({ temperature: 0.3 }, { temperature: 1, maxOutputTokens: 50 })).toEqual({ temperature: 0.3, maxOutputTokens: 50 });
    expect(effectiveCallSettings({}, {})).toEqual({});
  });
  it("ignores a stored value of the wrong type instead of sending it", () => {
    expect(effectiveCallSettings({ temperature: "hot", maxOutputTokens: null, stopSequences: "END" }, { temperature: 1 })).toEqual({ temperature: 1 });
  });
});

describe("promptModelSettingsSchema", () => {
  it("refuses an unknown key and out-of-range values with a message naming the setting", () => {
    const r = promptModelSettingsSchema.safeParse({ temprature: 1 });
    expect(r.success).toBe(false);
    expect(r.error!.issues[0].message).toMatch(/temprature/);
    expect(promptModelSettingsSchema.safeParse({ temperature: 3 }).error!.issues[0].message).toBe("Temperature must be a number from 0 to 2.");
    expect(promptModelSettingsSchema.safeParse({ maxOutputTokens: 1.5 }).error!.issues[0].message).toMatch(/^Max output tokens must be a whole number/);
  });
});
