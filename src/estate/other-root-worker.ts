// A worker loading roots around a run (./other-root-pool.ts): each job is one root, answered with its rules
// (terraform/parse-pool/shared-list-worker.ts sends them back, or has the main thread load the root).
import { workerData } from "node:worker_threads";
import { answerJobs } from "../terraform/parse-pool/shared-list-worker.js";
import { rulesOfRoot, type RunPaths } from "./other-root-load.js";
import type { OtherRootJob } from "./other-root-pool.js";

const where = workerData as RunPaths;
answerJobs((job: OtherRootJob) => rulesOfRoot(job.dir, where, job.declared));
