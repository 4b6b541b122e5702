/**
 * The error UI (app/error.tsx, app/global-error.tsx) picks its message from the digest alone, the only
 * thing production Next.js sends the browser about a server error.
 */
import { describe, expect, it } from "vitest";
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { ErrorNotice } from "./error-notice";
import { STORE_UNREACHABLE_DIGEST } from "@/lib/store/unreachable";

const render = (digest?: string) => renderToStaticMarkup(createElement(ErrorNotice, { digest, onRetry: () => undefined }));

describe("ErrorNotice", () => {
  it("says the database cannot be reached for the store's digest, with Try again", () => {
    const html = render(STORE_UNREACHABLE_DIGEST);
    expect(html).toContain("The database cannot be reached");
    expect(html).toContain("Try again");
    expect(html).not.toContain(STORE_UNREACHABLE_DIGEST);
  });

  it("gives any other failure a general message with its digest as the log reference", () => {
    const html = render("2893312144");
    expect(html).toContain("Something went wrong on the server");
    expect(html).toContain("reference <code>2893312144</code>");
    expect(html).not.toContain("database cannot be reached");
  });
});
