import { escapeToken } from "../openapi/pointer.js";

/** A JSON pointer into a plan (or its reference file) for findings: "" is the whole document. */
export const ptr = (...tokens: Array<string | number>) =>
  tokens.length ? `/${tokens.map((t) => escapeToken(String(t))).join("/")}` : "";

export const isObj = (v: unknown): v is Record<string, unknown> => !!v && typeof v === "object" && !Array.isArray(v);

/** Whether a part of a loosely typed plan is an object at all (its type stays the loose one it was). */
export const isPart = <T extends object>(v: T | null | undefined): v is T =>
  !!v && typeof v === "object" && !Array.isArray(v);
