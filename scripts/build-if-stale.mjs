// `npm test`'s first step: builds dist/ unless it was built from exactly these inputs (scripts/build-stamp.mjs).
// `npm run build` always builds.
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";
import { builtStamp, currentStamp, ROOT } from "./build-stamp.mjs";

const built = builtStamp();
if (built !== null && built === currentStamp() && existsSync(path.join(ROOT, "dist", "cli", "main.js"))) {
  console.log("dist/ is built from these sources already (dist/.build-stamp): not built again");
} else {
  const r = spawnSync(process.platform === "win32" ? "npm.cmd" : "npm", ["run", "build"], { cwd: ROOT, stdio: "inherit" });
  process.exit(r.status ?? 1);
}
