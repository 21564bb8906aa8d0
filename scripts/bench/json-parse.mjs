// Bench reference: what Node's own JSON.parse costs on a state file (read as one string, parsed, one field
// touched). Past ~512 MB Node cannot hold the file as one string; the exit code says so.
import { readFileSync } from "node:fs";

const doc = JSON.parse(readFileSync(process.argv[2], "utf8"));
console.log(Array.isArray(doc.resources) ? doc.resources.length : 0);
