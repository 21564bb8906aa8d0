// An error the user can fix (bad usage, input that cannot be read, an output directory already holding a
// plan): any layer may throw it, and the CLI reports it as one line on stderr with its exit code (2 unless
// said otherwise), never as an internal error with a stack trace.
export class UserInputError extends Error {
  constructor(
    message: string,
    readonly exitCode: number = 2,
  ) {
    super(message);
    this.name = "UserInputError";
  }
}
