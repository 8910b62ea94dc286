import { escapeToken } from "../openapi/pointer.js";

/** A JSON pointer into a plan (or its reference file) for findings: "" is the whole document. */
export const ptr = (...tokens: Array<string | number>) => (tokens.length ? `/${tokens.map((t) => escapeToken(String(t))).join("/")}` : "");

export const isObj = (v: unknown): v is Record<string, any> => !!v && typeof v === "object" && !Array.isArray(v);
