import { describe, expect, it } from "vitest";
import { binaryFor } from "../../src/cli/init/templates.js";
import { validateConfig } from "../../src/config/validate.js";

/** The binary `inter init` writes into the config is one the config then accepts, whatever the name it comes from. */
describe("inter init's binary name", () => {
  const accepted = (binary: string) => {
    const config = { product: { name: "X", binary }, inputs: { openapi: "a.yaml" } };
    return validateConfig(config, "intermesh.config.ts", []).product.binary;
  };

  it("is the name in kebab-case, opening with a letter", () => {
    expect(binaryFor("Acme Rooms")).toBe("acme-rooms");
    expect(binaryFor("Loket.nl")).toBe("loketnl");
    // A folder named by a hash, a product named by a number: the digits before the first letter are left out.
    expect(binaryFor("2a6c5dde")).toBe("a6c5dde");
    expect(binaryFor("123 Forms")).toBe("forms");
    expect(binaryFor("_private api_")).toBe("private-api");
    expect(binaryFor("2024")).toBe("api");
    expect(binaryFor("Ünïcödé Café")).toBe("unicode-cafe");
  });

  it("is always one the config accepts", () => {
    for (const name of ["2a6c5dde", "123 Forms", "--x--", "9", "API Reference: Billing", "a_b c-d", "Ünïcödé"])
      expect(accepted(binaryFor(name)), name).toBe(binaryFor(name));
  });
});
