// The Jenkins JUnit schema (jenkinsci/xunit-plugin, junit-10.xsd, the format Jenkins, GitLab and the
// GitHub test-report actions read), written here as a checker of the parsed tree: for each element, the
// attributes it may carry (and those it must), their types, and its children in the schema's order and
// numbers. Everything the schema allows that we never write is still listed, so the checker rejects
// exactly what the schema rejects for documents of our shape (no namespaces, no mixed content beyond text).
import type { XmlElement } from "./xml.js";

type AttrType = "string" | "int" | "decimal";
interface ElementRule {
  attrs: Record<string, AttrType>;
  required: string[];
  /** Children in order: name, minimum, maximum (Infinity = unbounded). */
  children: [string, number, number][];
  /** Text content allowed (mixed or simple content). */
  text: boolean;
}

const MESSAGE_TYPE: ElementRule = { attrs: { type: "string", message: "string" }, required: [], children: [], text: true };

export const JUNIT_SCHEMA: Record<string, ElementRule> = {
  testsuites: {
    // No `skipped` here: the schema has it on <testsuite> only.
    attrs: { name: "string", time: "decimal", tests: "int", failures: "int", disabled: "int", errors: "int" },
    required: [],
    children: [["testsuite", 0, Infinity]],
    text: false,
  },
  testsuite: {
    attrs: {
      name: "string",
      tests: "int",
      failures: "int",
      errors: "int",
      time: "decimal",
      disabled: "int",
      skipped: "int",
      timestamp: "string",
      hostname: "string",
      id: "string",
      package: "string",
      file: "string",
      log: "string",
      url: "string",
      version: "string",
    },
    required: ["name", "tests"],
    children: [
      ["properties", 0, 1],
      ["testcase", 0, Infinity],
      ["system-out", 0, 1],
      ["system-err", 0, 1],
    ],
    text: false,
  },
  properties: { attrs: {}, required: [], children: [["property", 1, Infinity]], text: false },
  property: { attrs: { name: "string", value: "string" }, required: ["name", "value"], children: [], text: false },
  testcase: {
    attrs: { name: "string", assertions: "string", time: "string", classname: "string", status: "string", class: "string", file: "string", line: "string" },
    required: ["name"],
    children: [
      ["skipped", 0, 1],
      ["error", 0, Infinity],
      ["failure", 0, Infinity],
      ["system-out", 0, Infinity],
      ["system-err", 0, Infinity],
    ],
    text: false,
  },
  skipped: { attrs: { message: "string" }, required: [], children: [], text: true },
  error: MESSAGE_TYPE,
  failure: MESSAGE_TYPE,
  "system-out": { attrs: {}, required: [], children: [], text: true },
  "system-err": { attrs: {}, required: [], children: [], text: true },
};

/** Every way `el` (the document root) departs from the schema; empty when it is valid. */
export function junitSchemaErrors(root: XmlElement): string[] {
  const errors: string[] = [];
  if (root.name !== "testsuites" && root.name !== "testsuite") errors.push(`root <${root.name}> is not testsuites or testsuite`);
  const visit = (el: XmlElement, path: string) => {
    const rule = JUNIT_SCHEMA[el.name];
    const here = `${path}/${el.name}`;
    if (!rule) return void errors.push(`${here}: element not in the schema`);
    for (const [k, v] of Object.entries(el.attrs)) {
      const t = rule.attrs[k];
      if (!t) errors.push(`${here}: attribute ${k} not allowed`);
      else if (t === "int" && !/^-?\d+$/.test(v)) errors.push(`${here}: ${k}="${v}" is not an integer`);
      else if (t === "decimal" && !/^[-+]?(\d+(\.\d*)?|\.\d+)$/.test(v)) errors.push(`${here}: ${k}="${v}" is not a decimal`);
    }
    for (const k of rule.required) if (!(k in el.attrs)) errors.push(`${here}: attribute ${k} missing`);
    if (!rule.text && el.text.trim() !== "") errors.push(`${here}: text not allowed`);
    // Children: walk the sequence in order.
    let i = 0;
    for (const [name, min, max] of rule.children) {
      let n = 0;
      while (i < el.children.length && el.children[i]!.name === name) {
        n++;
        i++;
      }
      if (n < min) errors.push(`${here}: needs at least ${min} <${name}>`);
      if (n > max) errors.push(`${here}: at most ${max} <${name}>`);
    }
    if (i < el.children.length) errors.push(`${here}: <${el.children[i]!.name}> not allowed here`);
    el.children.forEach((c) => visit(c, here));
  };
  visit(root, "");
  return errors;
}
