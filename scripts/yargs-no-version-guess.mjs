// An esbuild plugin for the CLI's bundles: yargs' factory calls `.version()` with no version, which guesses
// one by walking up from the working directory (our bundle's path holds no node_modules/, so yargs' shim
// starts there; installed, it starts at the project above node_modules/) to the first package.json:
// a directory listing per level and the user's package.json read and parsed, on every run (2 ms from a
// small directory, 7 ms from one of 4,000 entries), for a version src/cli/main.ts replaces at once with
// its own (`.version(toolVersion())`).
//
// The plugin makes that call `.version(false)`: no guess, no option, until main.ts adds it, so help and
// `--version` are unchanged. yargs reads package.json elsewhere only for `.pkgConf()`, which we do not
// use. When a new version no longer has exactly one such call, the build fails and says why.
import { readFileSync } from "node:fs";

const YARGS_FACTORY = /[\\/]node_modules[\\/]yargs[\\/]build[\\/]lib[\\/]yargs-factory\.js$/;
const GUESSING_CALL = /^(\s*)yargs\.version\(\);$/gm;

/** yargs-factory.js's text with the factory's version guess turned off; throws on an unexpected shape. */
export function noVersionGuess(text, file) {
  const calls = text.match(GUESSING_CALL) ?? [];
  if (calls.length !== 1) {
    throw new Error(`yargs-no-version-guess: ${file}: expected one \`yargs.version();\` in the factory, found ${calls.length}; update scripts/yargs-no-version-guess.mjs for this version`);
  }
  return text.replace(GUESSING_CALL, "$1yargs.version(false);");
}

export const yargsNoVersionGuess = {
  name: "yargs-no-version-guess",
  setup(b) {
    b.onLoad({ filter: YARGS_FACTORY }, (args) => ({
      contents: noVersionGuess(readFileSync(args.path, "utf8").replace(/^\/\/# sourceMappingURL=.*$/gm, ""), args.path),
      loader: "js",
    }));
  },
};
