// What the mirror's wrapper runs (double.env's CF_DOUBLE_MAIN, bundled by scripts/bundle-double.mjs into
// dist/sandbox/provider/start.cjs): the provider double (./main.ts) from its classic-script bundle through
// V8's code cache when this V8 takes it (./double-script.ts), else its ES module bundle, ./main.js.
import { fileURLToPath } from "node:url";
import { startCachedDouble } from "./double-script.js";

if (!startCachedDouble(fileURLToPath(new URL("./double.cjs", import.meta.url)))) void import(new URL("./main.js", import.meta.url).href);
