/**
 * What the root layout (a store that cannot be reached) and the error UI (app/error.tsx,
 * app/global-error.tsx: production Next.js sends only the digest) say.
 */
import { describe, expect, it } from "vitest";
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { ErrorNotice } from "./error-notice";

const render = (props: { unreachable?: boolean; digest?: string }) => renderToStaticMarkup(createElement(ErrorNotice, { ...props, onRetry: () => undefined }));

describe("ErrorNotice", () => {
  it("says the database cannot be reached, with Try again", () => {
    const html = render({ unreachable: true });
    expect(html).toContain("The database cannot be reached");
    expect(html).toContain("Try again");
  });

  it("gives a server error a general message with its digest as the log reference", () => {
    const html = render({ digest: "2893312144" });
    expect(html).toContain("Something went wrong on the server");
    expect(html).toContain("reference <code>2893312144</code>");
    expect(html).not.toContain("database cannot be reached");
  });
});
