// One long-lived process of the provider double (provider/host.ts) that terraform attaches to through
// TF_REATTACH_PROVIDERS, for callers that run terraform many times (the test harnesses): a plugin started
// per command costs a node process each time. Terraform attaches in go-plugin's test mode ("Test": true),
// in which it neither stops nor kills the process; the host serves every version and environment asked for,
// one unix socket each, and exits with its parent (its IPC channel closes) or on stop().
//
// What stays with the mirror: `terraform init` installs the provider from it and writes the lock file (a
// reattached provider is skipped by the installer), and whoever starts terraform picks the served version
// (the one the lock file selected): a reattached provider has no version of its own.

import { fork, type ChildProcess } from "node:child_process";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { PROVIDER_SOURCE } from "./mirror.js";
import type { HostReply, HostRequest } from "./provider/host.js";

type Env = Record<string, string | undefined>;

export class ProviderHost {
  private child: ChildProcess | undefined;
  private nextId = 1;
  private nextSocket = 1;
  private readonly pending = new Map<number, { resolve: (r: HostReply) => void; reject: (e: Error) => void }>();
  private readonly attached = new Map<string, Promise<string>>();
  private stderrTail = "";

  /** `socketDir`: where the unix sockets go (keep the path short: a socket path has at most 107 bytes). */
  constructor(private readonly socketDir: string) {}

  /**
   * The TF_REATTACH_PROVIDERS value for a terraform run on provider `version` with environment `env`: the
   * double behind it sees `env` as a plugin started by that terraform would (account directory, credentials,
   * CF_DOUBLE_LOG). Runs with the same version and environment share one socket.
   */
  reattachConfig(version: string, env: Env, source: string = PROVIDER_SOURCE): Promise<string> {
    const key = JSON.stringify([source, version, Object.entries(env).filter(([, v]) => v !== undefined).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))]);
    let config = this.attached.get(key);
    if (!config) {
      config = this.serve(version, env, source);
      this.attached.set(key, config);
      config.catch(() => this.attached.delete(key));
    }
    return config;
  }

  /** The host's process id, while it runs. */
  get pid(): number | undefined {
    return this.child?.pid;
  }

  /** Stops the host (every socket goes with it). */
  stop(): void {
    const child = this.child;
    this.child = undefined;
    this.attached.clear();
    if (child && child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
  }

  private async serve(version: string, env: Env, source: string): Promise<string> {
    mkdirSync(this.socketDir, { recursive: true });
    const socket = join(this.socketDir, `${this.nextSocket++}.sock`);
    const reply = await this.request({ version, env, socket });
    const pid = this.child?.pid;
    if (reply.error || !reply.protocol || !pid) throw new Error(reply.error ?? "the provider double's host did not answer");
    return JSON.stringify({
      [source]: { Protocol: "grpc", ProtocolVersion: reply.protocol, Pid: pid, Test: true, Addr: { Network: "unix", String: socket } },
    });
  }

  private request(body: Omit<HostRequest, "id">): Promise<HostReply> {
    const child = this.start();
    const id = this.nextId++;
    return new Promise<HostReply>((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      // While an answer is due the channel keeps the caller's process alive; otherwise it does not.
      child.channel?.ref();
      child.send({ id, ...body } satisfies HostRequest);
    });
  }

  private start(): ChildProcess {
    if (this.child) return this.child;
    const main = fileURLToPath(new URL("./provider/host.js", import.meta.url));
    const child = fork(main, [], {
      execArgv: [],
      stdio: ["ignore", "ignore", "pipe", "ipc"],
      env: { PATH: process.env.PATH ?? "/usr/bin:/bin" },
    });
    this.child = child;
    child.stderr?.on("data", (d: Buffer) => (this.stderrTail = (this.stderrTail + d.toString("utf8")).slice(-4000)));
    child.on("message", (reply: HostReply) => {
      const waiting = this.pending.get(reply.id);
      this.pending.delete(reply.id);
      if (this.pending.size === 0) child.channel?.unref();
      waiting?.resolve(reply);
    });
    child.on("exit", (code, signal) => {
      if (this.child === child) {
        this.child = undefined;
        this.attached.clear();
      }
      const error = new Error(`the provider double's host exited (${signal ?? code})${this.stderrTail ? `: ${this.stderrTail.trim()}` : ""}`);
      for (const waiting of this.pending.values()) waiting.reject(error);
      this.pending.clear();
    });
    child.unref();
    child.channel?.unref();
    (child.stderr as unknown as { unref?: () => void } | null)?.unref?.();
    return child;
  }
}
