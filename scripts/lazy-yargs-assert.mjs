// An esbuild plugin for the CLI's bundles: yargs' platform shim imports node:assert for two internal
// invariants (`assertNotStrictEqual`, `assertSingleKey`), checked on every run, which loads assert and its
// helpers (~1.6 ms of a 10-file scan's start-up) for two comparisons. The plugin gives the shim the same two
// checks (`Object.is`, as node:assert's strict comparisons) throwing an Error with node:assert's code
// (`ERR_ASSERTION`), or the message itself when it is an Error, as node:assert does; node:assert is loaded
// only to word a failure's message. When a new version no longer imports exactly these two names from
// 'assert', the build fails and says why.
import { readFileSync } from "node:fs";

const YARGS_SHIM = /[\\/]node_modules[\\/]yargs[\\/]lib[\\/]platform-shims[\\/]esm\.mjs$/;
const ASSERT_IMPORT = /^import \{ notStrictEqual, strictEqual \} from 'assert'\s*$/gm;

/** The shim's text with the two checks inlined; throws on an unexpected shape. */
export function inlineAssert(text, file) {
  const found = text.match(ASSERT_IMPORT) ?? [];
  if (found.length !== 1 || /from ['"](node:)?assert['"]/.test(text.replace(ASSERT_IMPORT, ""))) {
    throw new Error(`lazy-yargs-assert: ${file}: expected one \`import { notStrictEqual, strictEqual } from 'assert'\`; update scripts/lazy-yargs-assert.mjs for this version`);
  }
  return text.replace(
    ASSERT_IMPORT,
    [
      "import { createRequire as __assertRequire } from 'module'",
      // A failure is node:assert's own (its message and AssertionError), loaded then.
      "const __assertFails = (name, args) => { __assertRequire(import.meta.url)('assert')[name](...args); throw new Error('assert.' + name + ' did not throw') }",
      "const notStrictEqual = (...args) => { if (Object.is(args[0], args[1])) __assertFails('notStrictEqual', args) }",
      "const strictEqual = (...args) => { if (!Object.is(args[0], args[1])) __assertFails('strictEqual', args) }",
    ].join("\n"),
  );
}

export const lazyYargsAssert = {
  name: "lazy-yargs-assert",
  setup(b) {
    b.onLoad({ filter: YARGS_SHIM }, (args) => ({ contents: inlineAssert(readFileSync(args.path, "utf8"), args.path), loader: "js" }));
  },
};
