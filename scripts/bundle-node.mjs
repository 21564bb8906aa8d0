// What the CLI's bundle (bundle-cli.mjs) and the provider double's (bundle-double.mjs) share: esbuild's
// options for an ES module run by Node 20, and source maps that every reader of the package can follow.
import { readFileSync, writeFileSync } from "node:fs";

/**
 * A dependency's own source map may name sources its package does not ship (get-caller-file's index.ts);
 * mapping bundled dependency code to their JavaScript as published keeps every map entry readable.
 */
const dependencyMapsAsShipped = {
  name: "dependency-maps-as-shipped",
  setup(b) {
    b.onLoad({ filter: /[\\/]node_modules[\\/].*\.[cm]?js$/ }, (args) => ({
      contents: readFileSync(args.path, "utf8").replace(/^\/\/# sourceMappingURL=.*$/gm, ""),
      loader: "js",
    }));
  },
};

export const NODE_BUNDLE_OPTIONS = {
  bundle: true,
  format: "esm",
  platform: "node",
  target: "node20",
  // tsc's source maps are read as input, so the bundle's maps point at src/ (shipped in the package);
  // bundled dependencies' sources are not shipped, so their text stays embedded (see slimSourceMap).
  sourcemap: "linked",
  sourcesContent: true,
  logLevel: "warning",
  metafile: true,
  // Bundled CommonJS dependencies (cross-spawn under execa, gRPC) require Node's built-ins; an ES module has
  // no `require` of its own, so each output file gets one.
  banner: { js: 'import { createRequire as __bundleCreateRequire } from "node:module";\nconst require = __bundleCreateRequire(import.meta.url);' },
  plugins: [dependencyMapsAsShipped],
};

/** Drops the embedded text of our own sources (src/ ships with the package); keeps it for dependencies. */
export function slimSourceMap(file) {
  const map = JSON.parse(readFileSync(file, "utf8"));
  map.sourcesContent = map.sources.map((s, i) => (s.includes("node_modules/") ? map.sourcesContent[i] : null));
  writeFileSync(file, JSON.stringify(map));
}
