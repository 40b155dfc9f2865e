// The debug mode's check of an answer against its area's answer schema (schemas.json, generated
// by adapters/kitgen from `lembas-check schema`): the first fault with its path, as lembas-check
// names it (`answer.text: want string, got null`), or "" when the answer fits.
import { readFileSync } from "node:fs";

const schemas = JSON.parse(readFileSync(new URL("./schemas.json", import.meta.url), "utf8"));

/** @param {unknown} v */
function typeOf(v) {
  if (v === null) return "null";
  if (Array.isArray(v)) return "array";
  if (typeof v === "number") return Number.isInteger(v) ? "integer" : "number";
  return typeof v; // string, boolean, object
}

/** @param {any} s @param {unknown} v @param {string} path @returns {string} */
function check(s, v, path) {
  if (s.type !== undefined) {
    const want = [].concat(s.type);
    const got = typeOf(v);
    if (!want.includes(got) && !(got === "integer" && want.includes("number"))) {
      return `${path}: want ${want.join(" or ")}, got ${got}`;
    }
  }
  if (Array.isArray(v) && s.items) {
    for (let i = 0; i < v.length; i++) {
      const msg = check(s.items, v[i], `${path}[${i}]`);
      if (msg) return msg;
    }
  } else if (typeOf(v) === "object") {
    const o = /** @type {Record<string, unknown>} */ (v);
    for (const k of s.required ?? []) {
      if (!(k in o)) return `${path}.${k}: missing (want ${[].concat(s.properties[k].type ?? "any value").join(" or ")})`;
    }
    for (const k of Object.keys(o).sort()) {
      let sub = s.properties?.[k];
      if (sub === undefined) {
        if (s.additionalProperties === false) return `${path}.${k}: unknown field`;
        if (typeof s.additionalProperties !== "object") continue;
        sub = s.additionalProperties;
      }
      const msg = check(sub, o[k], `${path}.${k}`);
      if (msg) return msg;
    }
  }
  return "";
}

/** @param {string} area @param {unknown} answer */
export function checkAnswer(area, answer) {
  const s = schemas[area];
  return s ? check(s, answer, "answer") : "";
}
