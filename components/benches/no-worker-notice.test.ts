/**
 * Issue 20: a bench no worker picked up said only "queued · time left not known yet". The notice
 * says that no worker took it, for how long, and how to start one.
 */
import { describe, expect, it } from "vitest";
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { NoWorkerNotice } from "./no-worker-notice";

describe("NoWorkerNotice", () => {
  it("says no worker picked the bench up, how long it waited and how to start one", () => {
    const html = renderToStaticMarkup(createElement(NoWorkerNotice, { since: 1_700_000_000_000, now: 1_700_000_024_000 }));
    const text = html.replace(/<[^>]+>/g, "");
    expect(text).toBe(
      "No worker has picked up this bench yet (waiting 24s). Is a worker running? Start one with npm run worker (README: PostgreSQL), or run the server without BENCHWORK_WORKER=off.",
    );
  });
});
