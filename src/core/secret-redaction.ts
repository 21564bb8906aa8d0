// One redactor for every credential the tool holds (Cloudflare API token and key for `api`, secret-looking
// environment variables around terraform runs). Pure: no I/O.
//
// A server or proxy that echoes request headers does not echo them verbatim only: it may upper-case them,
// cut them, space them out, or show them hex- or base64-encoded (`Authorization: Bearer <token>` and
// `email:key` are often shown base64-encoded). So a credential is redacted as any run of
// FRAGMENT_CHARS or more of its characters, ASCII case-insensitively, also with separators between the
// characters, and any hex or base64 text that encodes such a run. The scan is linear in the text: every
// form is cut into fixed-length windows held in sets, and each text position is looked up once per window
// length.

/** The shortest run of a credential's characters that is redacted wherever it appears. */
export const FRAGMENT_CHARS = 8;

/** Values shorter than this are never redacted: they would corrupt ordinary output (`true`, ids). */
export const MIN_SECRET_CHARS = 6;

export interface SecretRedactorInput {
  /** Credentials: redacted whole and as fragments, in every transformed form. */
  secrets: readonly (string | undefined | null)[];
  /** Identifying values that are not secret enough for fragment matching (an e-mail): redacted whole only. */
  wholeOnly?: readonly (string | undefined | null)[];
  /** What replaces each redacted span. */
  marker: string;
}

export type TextRedactor = (text: string) => string;

interface WindowSet {
  width: number;
  grams: Set<string>;
}

/** Builds the redactor; the identity when there is nothing to redact. */
export function createSecretRedactor(input: SecretRedactorInput): TextRedactor {
  const usable = (list: readonly (string | undefined | null)[] | undefined) =>
    (list ?? []).filter((s): s is string => typeof s === "string" && s.length >= MIN_SECRET_CHARS);
  const secrets = usable(input.secrets);
  const wholeOnly = usable(input.wholeOnly);

  // Whole values in the spellings an echo or a URL produces, matched case-insensitively.
  const whole = new Set<string>();
  for (const s of [...secrets, ...wholeOnly]) {
    for (const form of [s, encodeURIComponent(s), JSON.stringify(s).slice(1, -1)]) whole.add(asciiLower(form));
  }
  // Fragments: windows of each credential's transformed forms; `direct` as written, `projected` with every
  // character that is not a letter or digit removed (spaced-out or dash-separated echoes).
  const direct = new Map<number, Set<string>>();
  const projected = new Map<number, Set<string>>();
  const addWindows = (target: Map<number, Set<string>>, form: string, width: number) => {
    if (form.length < width) return;
    let set = target.get(width);
    if (!set) target.set(width, (set = new Set()));
    for (let i = 0; i + width <= form.length; i++) set.add(form.slice(i, i + width));
  };
  for (const s of secrets) {
    for (const [form, width] of transformedForms(s)) {
      addWindows(direct, asciiLower(form), width);
      addWindows(projected, alnumOnly(asciiLower(form)), width);
    }
  }
  if (whole.size === 0 && direct.size === 0) return (text) => text;
  const directSets = [...direct].map(([width, grams]): WindowSet => ({ width, grams }));
  const projectedSets = [...projected].map(([width, grams]): WindowSet => ({ width, grams }));
  const wholeForms = [...whole].filter((f) => f.length > 0);

  return (text: string): string => {
    if (text.length === 0) return text;
    const lower = asciiLower(text);
    const covered = new Uint8Array(text.length + 1);
    const cover = (from: number, to: number) => {
      for (let i = from; i < to; i++) covered[i] = 1;
    };
    for (const form of wholeForms) {
      for (let at = lower.indexOf(form); at >= 0; at = lower.indexOf(form, at + 1)) cover(at, at + form.length);
    }
    for (const { width, grams } of directSets) {
      for (let i = 0; i + width <= lower.length; i++) if (grams.has(lower.slice(i, i + width))) cover(i, i + width);
    }
    if (projectedSets.length > 0) {
      const { chars, origin } = projectAlnum(lower);
      for (const { width, grams } of projectedSets) {
        for (let j = 0; j + width <= chars.length; j++) {
          if (grams.has(chars.slice(j, j + width))) cover(origin[j]!, origin[j + width - 1]! + 1);
        }
      }
    }
    let out = "";
    for (let i = 0; i < text.length; ) {
      if (covered[i] === 0) {
        let j = i;
        while (j < text.length && covered[j] === 0) j++;
        out += text.slice(i, j);
        i = j;
      } else {
        while (i < text.length && covered[i] === 1) i++;
        out += input.marker;
      }
    }
    return out;
  };
}

/**
 * The forms a credential takes in an echo, each with the window length that stands for FRAGMENT_CHARS
 * characters of it: the value itself; its hex (two digits per byte); its base64 and base64url at the three
 * byte alignments it can have inside a longer encoded text (`Bearer <token>`, `email:key`), keeping only the
 * characters that depend on the credential's bytes alone.
 */
export function transformedForms(secret: string): Array<[string, number]> {
  const bytes = Buffer.from(secret, "utf8");
  const forms: Array<[string, number]> = [
    [secret, FRAGMENT_CHARS],
    [bytes.toString("hex"), 2 * FRAGMENT_CHARS],
  ];
  for (let skip = 0; skip < 3; skip++) {
    const whole = Math.floor((bytes.length - skip) / 3) * 3;
    if (whole <= 0) continue;
    const core = bytes.subarray(skip, skip + whole);
    // FRAGMENT_CHARS bytes at any alignment hold at least two whole 3-byte groups: eight base64 characters.
    forms.push([core.toString("base64"), 8]);
    forms.push([core.toString("base64url"), 8]);
  }
  return forms;
}

/** Lower-cases A–Z only, keeping every index in place (so positions in the copy are positions in the text). */
function asciiLower(text: string): string {
  return text.replace(/[A-Z]+/g, (run) => run.toLowerCase());
}

function alnumOnly(text: string): string {
  return text.replace(/[^a-z0-9]+/g, "");
}

/** The letters and digits of a lower-cased text, with the index in the text each one came from. */
function projectAlnum(lower: string): { chars: string; origin: Uint32Array } {
  const origin = new Uint32Array(lower.length);
  let chars = "";
  let n = 0;
  for (let i = 0; i < lower.length; i++) {
    const c = lower.charCodeAt(i);
    if ((c >= 97 && c <= 122) || (c >= 48 && c <= 57)) {
      chars += lower[i];
      origin[n++] = i;
    }
  }
  return { chars, origin };
}
