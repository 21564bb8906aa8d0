// Preloaded with `node --import` by the bench where /usr/bin/time is missing: writes the process's peak
// RSS (KB) to $BENCH_RSS_FILE at exit, so the number is the child's own.
import { writeFileSync } from "node:fs";

const file = process.env.BENCH_RSS_FILE;
if (file) process.on("exit", () => writeFileSync(file, String(process.resourceUsage().maxRSS)));
