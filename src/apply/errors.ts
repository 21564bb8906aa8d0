// Errors of `apply`: a refusal before anything changed (exit 2) and a step that stopped the run (exit 1).

/** A precondition does not hold: nothing was changed. Each reason is one line for the user. */
export class ApplyRefusedError extends Error {
  constructor(readonly reasons: string[]) {
    super(reasons.length === 1 ? reasons[0]! : `${reasons.length} problems:\n${reasons.map((r) => `  - ${r}`).join("\n")}`);
    this.name = "ApplyRefusedError";
  }
}

/** A step cannot go on; `detail` holds what the user needs to see (plan output, files). */
export class StepFailedError extends Error {
  constructor(
    message: string,
    readonly detail: string = "",
  ) {
    super(message);
    this.name = "StepFailedError";
  }
}
