// ESLint for the web client (src/polytable/web/static) and its unit tests (tests/js): the recommended rules,
// ES modules, browser globals (service- and web-worker globals for sw.js and the offline worker, Node's for
// the tests). ESLint and its packages come from build/npm-lint (scripts/npm-lint.sh), never from the repo.
import { createRequire } from "node:module";

const require = createRequire(new URL("./build/npm-lint/package.json", import.meta.url));
const js = require("@eslint/js");
const globals = require("globals");

const STATIC = "src/polytable/web/static";

export default [
  { ignores: [`${STATIC}/vendor/**`] },
  js.configs.recommended,
  {
    files: [`${STATIC}/**/*.js`, "tests/js/**/*.mjs"],
    languageOptions: { ecmaVersion: 2022, sourceType: "module", globals: globals.browser },
    rules: {
      "no-unused-vars": ["error", { args: "after-used", caughtErrors: "none" }],
      eqeqeq: ["error", "smart"],
      "no-var": "error",
      "prefer-const": "error",
    },
  },
  { files: [`${STATIC}/sw.js`], languageOptions: { globals: globals.serviceworker } },
  { files: [`${STATIC}/offline/worker.js`], languageOptions: { globals: globals.worker } },
  { files: ["tests/js/**/*.mjs"], languageOptions: { globals: { ...globals.node, ...globals.browser } } },
];
