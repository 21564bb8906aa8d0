// Serves the fake terraform (fake-terraform.mjs) to the shell client that fakeTerraformBin() puts on PATH
// (test/support/workdir.ts): one Node process answers every invocation of a test worker instead of one
// Node start per invocation (about 70 ms of CPU each, and an `apply` makes a dozen). The client sends
// NUL-separated fields: working directory, argument count, arguments, then NAME=VALUE environment entries
// ended by an empty field. The answer is NUL-separated too: exit code, stdout, stderr.
//
//   node fake-terraform-server.mjs PORT_FILE    listens on 127.0.0.1, writes its port to PORT_FILE, and
//                                               ends when its standard input closes (its parent is gone)
import { renameSync, writeFileSync } from "node:fs";
import net from "node:net";
import { runFake } from "./fake-terraform.mjs";

const [portFile] = process.argv.slice(2);

/** The request in `fields` once it is whole (its environment's closing empty field has come), else null. */
function request(fields) {
  if (fields.length < 2) return null;
  const argc = Number(fields[1]);
  const envStart = 2 + argc;
  const end = fields.indexOf("", envStart);
  if (end < 0) return null;
  const environment = {};
  for (const entry of fields.slice(envStart, end)) {
    const eq = entry.indexOf("=");
    if (eq > 0) environment[entry.slice(0, eq)] = entry.slice(eq + 1);
  }
  return { cwd: fields[0], args: fields.slice(2, envStart), environment };
}

function answer(req) {
  let stdout = "";
  let stderr = "";
  let code;
  try {
    // One invocation at a time (each runs whole inside its data event), so the process's directory is its own.
    process.chdir(req.cwd);
    code = runFake(req.args, req.environment, { out: (s) => (stdout += s), err: (s) => (stderr += s) });
  } catch (e) {
    stderr += `fake terraform server: ${e && e.stack ? e.stack : e}\n`;
    code = 1;
  }
  return `${code}\0${stdout}\0${stderr}\0`;
}

const server = net.createServer((socket) => {
  let received = "";
  socket.setEncoding("utf8");
  socket.on("data", (chunk) => {
    received += chunk;
    // A field is whole once its NUL has come: the text after the last NUL is still arriving.
    const req = request(received.split("\0").slice(0, -1));
    if (req) socket.end(answer(req));
  });
  socket.on("error", () => undefined);
});

server.listen(0, "127.0.0.1", () => {
  const tmp = `${portFile}.tmp`;
  writeFileSync(tmp, `${server.address().port}\n`);
  // The client reads the file whole or not at all.
  renameSync(tmp, portFile);
});
process.stdin.on("end", () => process.exit(0));
process.stdin.on("error", () => process.exit(0));
process.stdin.resume();
