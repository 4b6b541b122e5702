// ESLint (flat config): the Next.js core-web-vitals and TypeScript rules, with formatting left to
// Prettier (eslint-config-prettier). `npm run lint`; part of `npm test`.
import nextVitals from "eslint-config-next/core-web-vitals";
import nextTs from "eslint-config-next/typescript";
import prettier from "eslint-config-prettier/flat";

const config = [
  ...nextVitals,
  ...nextTs,
  prettier,
  {
    rules: {
      // Control characters in a regex are a mistake unless said so (the few deliberate ones carry a disable comment).
      "no-control-regex": "error",
      // A leading underscore marks a value left out on purpose (destructuring to omit a field).
      "@typescript-eslint/no-unused-vars": [
        "warn",
        { argsIgnorePattern: "^_", varsIgnorePattern: "^_", caughtErrorsIgnorePattern: "^_", ignoreRestSiblings: true },
      ],
    },
  },
  {
    // Issue 20: the queries are async on both stores; a query or workflow that is not awaited (or a
    // Promise tested as a condition) would skip its write or read a Promise instead of rows.
    files: ["**/*.{ts,tsx}"],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      "@typescript-eslint/no-floating-promises": "error",
      "@typescript-eslint/no-misused-promises": ["error", { checksVoidReturn: false }],
      "@typescript-eslint/await-thenable": "error",
    },
  },
  {
    // A textarea must not take typing before hydration (React puts its server text back under it):
    // components/ui/textarea.tsx is the one place that renders the element.
    files: ["app/**/*.tsx", "components/**/*.tsx"],
    ignores: ["components/ui/textarea.tsx"],
    rules: { "react/forbid-elements": ["error", { forbid: [{ element: "textarea", message: "use Textarea from @/components/ui/textarea" }] }] },
  },
  {
    // Eval modules and tool configs default-export a plain object: that is their documented contract.
    files: ["examples/**", "**/*.config.{ts,mjs,js}"],
    rules: { "import/no-anonymous-default-export": "off" },
  },
  {
    ignores: [".next/**", "dist/**", "node_modules/**", "e2e/.artifacts/**", "bench/.out/**", "data/**", "test-results/**", "next-env.d.ts", "**/*.d.mts"],
  },
];

export default config;
