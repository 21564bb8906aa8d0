// Preloaded with `node --import` by the bench where /usr/bin/time is missing: writes the process's peak
// RSS (KB) and its CPU seconds (user, system) to $BENCH_RSS_FILE at exit, so the numbers are the child's own.
import { writeFileSync } from "node:fs";

const file = process.env.BENCH_RSS_FILE;
if (file) {
  process.on("exit", () => {
    const u = process.resourceUsage();
    writeFileSync(file, `${u.maxRSS} ${u.userCPUTime / 1e6} ${u.systemCPUTime / 1e6}`);
  });
}
