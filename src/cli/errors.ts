// Exit codes of the CLI contract (DESIGN.md section 3).
import { UserInputError } from "../core/user-input-error.js";

export { UserInputError };
export const EXIT_OK = 0;
/** Findings at or above --fail-on: the gate failed. */
export const EXIT_FINDINGS = 1;
/** Bad usage, or input that could not be read or parsed. */
export const EXIT_INPUT = 2;

/** The exit codes, at the end of every command's --help (the README's "Exit codes" says the same). */
export const EXIT_CODES_EPILOGUE =
  "Exit codes: 0 no finding at or above --fail-on, 1 findings at or above it, 2 bad usage or input that could not be read. " +
  "This is the ESLint/Checkov convention; unlike terraform plan -detailed-exitcode (where 2 means changes are pending), 2 here is always an error.";

/**
 * An error the CLI reports as one line on stderr (no stack trace unless --debug) with exit code 2.
 * Throw it for bad usage or unreadable input; anything else thrown is a bug and is reported as such.
 */
export class CliError extends UserInputError {
  constructor(message: string, exitCode: number = EXIT_INPUT) {
    super(message, exitCode);
    this.name = "CliError";
  }
}
