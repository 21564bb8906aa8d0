/** The variable that hands the sandbox API its token (environment, not argv: argv is visible to every user). */
export const TOKEN_ENV = "CF_SANDBOX_API_TOKEN";
