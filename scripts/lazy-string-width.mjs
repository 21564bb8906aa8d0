// An esbuild plugin for the CLI's bundle: string-width (pulled in by yargs and its cliui/wrap-ansi, and
// used only to lay out help and usage text) builds an Intl.Segmenter and \p{…} regular expressions when
// its module is evaluated — \p{RGI_Emoji} alone costs ~15 ms of CPU, the first Segmenter ~9 ms (ICU data),
// on every run of every command, although a run that prints no help never measures a string.
//
// The plugin evaluates each ESM copy of string-width's body on its first call instead: the imports stay at
// the top, the rest moves into a function that runs once and returns the original stringWidth. Same code,
// same results, only later. When a new version no longer has the shape this relies on (imports, then a body
// whose only export is `export default function NAME(`), the build fails and says why;
// assertNoEagerTextSetup then checks the bundle itself, whatever module such set-up would come from.
import { readFileSync } from "node:fs";

const STRING_WIDTH = /[\\/]node_modules[\\/](?:.*[\\/])?string-width[\\/]index\.js$/;

/** The leading run of import statements, comments and blank lines. */
const LEADING_IMPORTS = /^(?:\s+|\/\/[^\n]*|\/\*[\s\S]*?\*\/|import\s[^;]*;)*/;

/** string-width's module text with its body deferred to the first call; throws on an unexpected shape. */
export function deferStringWidth(text, file) {
  const fail = (why) => {
    throw new Error(`lazy-string-width: ${file}: ${why}; update scripts/lazy-string-width.mjs for this version`);
  };
  const head = LEADING_IMPORTS.exec(text)[0];
  const body = text.slice(head.length);
  if (!/^import\s/m.test(head)) fail("no import statements at the top (not the ES module this expects)");
  if (/^\s*import[\s{*]/m.test(body)) fail("an import statement after the module's first other statement");
  const exports = body.match(/^\s*export\s.*$/gm) ?? [];
  const def = /^export default function (\w+)\(/m.exec(body);
  if (exports.length !== 1 || !def) fail(`expected one export, \`export default function NAME(\`; found ${exports.length ? exports.map((e) => e.trim()).join(" | ") : "none"}`);
  const name = def[1];
  if (/\bexport\s*\{|\bimport\.meta\b|\bawait\s/.test(body.replace(/^export default function /m, ""))) fail("a construct that cannot move into a function");
  return `${head}
let __${name};
export default function ${name}(...args) {
  return (__${name} ??= __define_${name}())(...args);
}
function __define_${name}() {
${body.replace(/^export default function /m, "function ")}
return ${name};
}
`;
}

export const lazyStringWidth = {
  name: "lazy-string-width",
  setup(b) {
    b.onLoad({ filter: STRING_WIDTH }, (args) => {
      const text = readFileSync(args.path, "utf8");
      // The CommonJS copies (string-width 4, under @grpc/proto-loader's yargs 17) set nothing up at load.
      if (!/^\s*import\s/m.test(text) && /\brequire\(/.test(text)) return undefined;
      return { contents: deferStringWidth(text.replace(/^\/\/# sourceMappingURL=.*$/gm, ""), args.path), loader: "js" };
    });
  },
};

/** Set-up that must not run at a bundle's top level (column 0 is top level in esbuild's output). */
const EAGER_TEXT_SETUP = [/^(?:var|let|const) \w+ = new Intl\.Segmenter\(/m, /^(?:var|let|const) \w+ = (?:new RegExp\(["'`][^\n]*\\p\{RGI_Emoji|\/[^\n]*\\p\{RGI_Emoji)/m];

/** Throws when a bundled file sets up a Segmenter or the \p{RGI_Emoji} regex at load time. */
export function assertNoEagerTextSetup(files) {
  for (const [file, text] of files) {
    for (const re of EAGER_TEXT_SETUP) {
      const m = re.exec(text);
      if (m) throw new Error(`${file}: "${m[0]}" runs at load time; every CLI run would pay for it (see scripts/lazy-string-width.mjs)`);
    }
  }
}
