// The SARIF 2.1.0 validator shared by the renderer tests and the end-to-end gate test: ajv over the schema
// kept beside these tests (sarif-schema-2.1.0.json), with real checks for the uri formats.
import { readFileSync } from "node:fs";
import { Ajv } from "ajv";

const schema = JSON.parse(readFileSync(new URL("./sarif-schema-2.1.0.json", import.meta.url), "utf8")) as object;

// RFC 3986: an absolute URI has a scheme; a URI reference is made of unreserved, reserved and
// percent-encoded characters only (no spaces, no backslashes, no raw non-ASCII).
const URI_CHARS = /^(?:[A-Za-z0-9\-._~:/?#[\]@!$&'()*+,;=]|%[0-9A-Fa-f]{2})*$/;
const isUriReference = (s: string) => URI_CHARS.test(s);
const isUri = (s: string) => /^[A-Za-z][A-Za-z0-9+.-]*:/.test(s) && URI_CHARS.test(s);

export function makeSarifValidator() {
  const ajv = new Ajv({ strict: false, allErrors: true, validateFormats: true });
  ajv.addFormat("uri", isUri);
  ajv.addFormat("uri-reference", isUriReference);
  // Formats the schema names but our output never carries: accepted as is.
  for (const fmt of ["date-time", "email", "hostname"]) ajv.addFormat(fmt, true);
  return ajv.compile(schema);
}
