import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { brotliCompressSync, deflateSync, gzipSync } from "node:zlib";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import type { InterConfig } from "../../src/config/types.js";
import { assembleCapabilities } from "../../src/stages/design/capabilities.js";
import { designCommands } from "../../src/stages/design/commands.js";
import { parseBrief } from "../../src/stages/design/context.js";
import { planSkills } from "../../src/stages/design/skills.js";
import { authOf, planScheme } from "../../src/stages/design/wire.js";
import { readOperationModel } from "../../src/stages/openapi/normalize.js";
import { commandCredential, credentialHow } from "../../src/runtime/auth.js";
import { bindFlags, splitArgv } from "../../src/runtime/args.js";
import { redactRequest, buildRequest, errorFor, secretPlaces, send as sendRequest } from "../../src/runtime/http.js";
import { encodeBody } from "../../src/runtime/request-body.js";
import type { AuthScheme, Body, Command, Flag, Manifest } from "../../src/runtime/manifest.js";
import { flagUsage, type Style } from "../../src/runtime/serialize.js";
import { designDocument, REPO, tempDir } from "../helpers.js";
import { schemaValidator } from "../schema.js";

// The OpenAPI 3.1.1 "Style Examples" table (§4.8.12.4.1), row by row, through the runtime's buildRequest: a parameter
// named `color` holding "blue", ["blue", "black", "brown"] or {R: 100, G: 200, B: 150}.
const STRING = "blue";
const ARRAY = ["blue", "black", "brown"];
const OBJECT = { R: 100, G: 200, B: 150 };

function manifestWith(schemes: Record<string, AuthScheme> = {}): Manifest {
  return {
    product: { name: "T", binary: "t", version: "1.0.0", description: "" },
    baseUrl: { default: null, env: "T_BASE_URL" },
    auth: { schemes },
    rules: [],
    skills: [],
    groups: [],
    help: "full",
  };
}

function commandWith(path: string, flags: Flag[], auth: Command["auth"] = []): Command {
  return {
    path: ["x", "get"],
    name: "x get",
    description: "x",
    operation: { method: "GET", path },
    flags,
    jsonInput: false,
    destructive: false,
    permission: "read",
    output: { shape: "object" },
    auth,
    hidden: false,
  };
}

const flagOf = (at: Flag["in"], type: Flag["type"], style?: Style, explode?: boolean): Flag => ({
  flag: "color",
  in: at,
  wire: "color",
  type,
  required: false,
  ...(style ? { style } : {}),
  ...(explode !== undefined ? { explode } : {}),
});

/** The request a command sends with `color` set to `value`. */
function send(at: Flag["in"], value: unknown, style?: Style, explode?: boolean) {
  const type = Array.isArray(value) ? "array" : typeof value === "object" ? "object" : "string";
  const flag = flagOf(at, type, style, explode);
  const command = commandWith(at === "path" ? "/colors/{color}" : "/colors", [flag]);
  return buildRequest(manifestWith(), command, "http://api.test", new Map([[flag, value]]), undefined, []);
}
const pathOf = (value: unknown, style: Style, explode: boolean) =>
  send("path", value, style, explode).url.slice("http://api.test/colors/".length);
const queryOf = (value: unknown, style: Style, explode: boolean) =>
  send("query", value, style, explode).url.slice("http://api.test/colors".length);

describe("path parameters: the style table's matrix, label and simple rows", () => {
  it.each([
    ["matrix", false, ";color=blue", ";color=blue,black,brown", ";color=R,100,G,200,B,150"],
    ["matrix", true, ";color=blue", ";color=blue;color=black;color=brown", ";R=100;G=200;B=150"],
    ["label", false, ".blue", ".blue,black,brown", ".R,100,G,200,B,150"],
    ["label", true, ".blue", ".blue.black.brown", ".R=100.G=200.B=150"],
    ["simple", false, "blue", "blue,black,brown", "R,100,G,200,B,150"],
    ["simple", true, "blue", "blue,black,brown", "R=100,G=200,B=150"],
  ] as const)("%s, explode %s", (style, explode, string, array, object) => {
    expect(pathOf(STRING, style, explode)).toBe(string);
    expect(pathOf(ARRAY, style, explode)).toBe(array);
    expect(pathOf(OBJECT, style, explode)).toBe(object);
  });

  it("an empty array is the table's undefined column: ;color, a lone dot; in simple style, where it would be nothing, a refusal", () => {
    expect(pathOf([], "matrix", false)).toBe(";color");
    expect(pathOf([], "label", true)).toBe(".");
    // `/colors/` is another address than `/colors/{color}` (a list, or a delete of every color): never sent.
    for (const empty of [[], "", {}])
      expect(() => pathOf(empty, "simple", false)).toThrow(
        expect.objectContaining({ code: "INVALID_VALUE", message: expect.stringContaining("--color") }),
      );
  });

  it("percent-encodes every reserved character in values, the style's own delimiters stay literal", () => {
    expect(pathOf("a/b c?d#e", "simple", false)).toBe("a%2Fb%20c%3Fd%23e");
    expect(pathOf(["x,y", "it's"], "label", false)).toBe(".x%2Cy,it%27s");
    expect(pathOf({ "k;1": "v=2" }, "matrix", true)).toBe(";k%3B1=v%3D2");
  });
});

describe("a urlencoded form's fields", () => {
  const form = (fields: Record<string, unknown>, parts?: Body["parts"]) =>
    (
      encodeBody(
        {
          mediaType: "application/x-www-form-urlencoded",
          encoding: "form",
          required: true,
          ...(parts ? { parts } : {}),
        },
        fields,
        new Map(),
      ) as { text: string }
    ).text;

  it("an object without a style of its own goes as JSON under its name; lists as repeated keys", () => {
    // Exploded, the object's keys were fields of their own (`city=Paris&zip=75001`): its name was lost.
    expect(form({ name: "n", address: { city: "Paris", zip: "75001" }, tags: ["a", "b"] })).toBe(
      "name=n&address=%7B%22city%22%3A%22Paris%22%2C%22zip%22%3A%2275001%22%7D&tags=a&tags=b",
    );
    // A style the document gives is kept: form explodes the keys, deepObject brackets them.
    expect(form({ address: { city: "Paris" } }, { address: { style: "form" } })).toBe("city=Paris");
    expect(form({ address: { city: "Paris" } }, { address: { style: "deepObject", explode: true } })).toBe(
      "address%5Bcity%5D=Paris",
    );
    expect(form({ tags: ["a", "b"] }, { tags: { contentType: "application/json" } })).toBe(
      "tags=%5B%22a%22%2C%22b%22%5D",
    );
  });
});

describe("a multipart body's lists", () => {
  const parts = (fields: Record<string, unknown>, encoding?: Body["parts"]) => {
    const body = {
      mediaType: "multipart/form-data",
      encoding: "multipart" as const,
      required: true,
      ...(encoding ? { parts: encoding } : {}),
    };
    const { text } = encodeBody(body, fields, new Map()) as { text: string };
    return [...text.matchAll(/name="(\w+)"\r\n\r\n([^\r]*)\r\n/g)].map((m) => `${m[1]}=${m[2]}`);
  };

  it("are repeated parts, or one delimited part where a collectionFormat or explode: false says so", () => {
    expect(parts({ tags: ["a", "b"] })).toEqual(["tags=a", "tags=b"]);
    // Swagger 2.0's default csv (form, explode false): one part `c,d`, as the description reads it.
    expect(parts({ codes: ["c", "d"] }, { codes: { style: "form", explode: false } })).toEqual(["codes=c,d"]);
    expect(parts({ codes: ["c", "d"] }, { codes: { style: "pipeDelimited", explode: false } })).toEqual(["codes=c|d"]);
    expect(parts({ tags: ["a", "b"] }, { tags: { style: "form", explode: true } })).toEqual(["tags=a", "tags=b"]);
  });
});

describe("a file's content type", () => {
  const typeOf = (path: string, mediaType: string) => {
    const body = { mediaType, encoding: "raw" as const, required: true };
    return encodeBody(body, undefined, new Map([["", [{ flag: "file", path }]]]))!.contentType;
  };

  it("is the declared type its extension names, of a list; else an octet stream where the list takes one", () => {
    const video = "video/mp4, video/x-matroska, application/octet-stream";
    expect(typeOf("clip.mkv", video)).toBe("video/x-matroska");
    expect(typeOf("clip.MP4", video)).toBe("video/mp4");
    // PeerTube's captions: a SubRip file is `application/x-subrip`, never the list's first (`text/vtt`).
    expect(typeOf("cap.srt", "text/vtt, application/x-subrip, text/plain")).toBe("application/x-subrip");
    expect(typeOf("clip.xyz", video)).toBe("application/octet-stream");
    expect(typeOf("clip.avi", video)).toBe("application/octet-stream");
    // No octet stream offered: the first type the document names.
    expect(typeOf("clip.avi", "video/mp4, video/webm")).toBe("video/mp4");
    // A wildcard is narrowed by the extension; a file named like an extension has none.
    expect(typeOf("photo.heic", "image/*")).toBe("image/heic");
    expect(typeOf("png", "image/*, application/octet-stream")).toBe("application/octet-stream");
  });
});

describe("values that carry reserved characters (allowReserved, Azure's x-ms-skip-url-encoding)", () => {
  const reserved = (at: "path" | "query", path: string, value: string, wire = "scope") => {
    const flag: Flag = { flag: wire, in: at, wire, type: "string", required: true, allowReserved: true };
    const query: Flag = { flag: "api-version", in: "query", wire: "api-version", type: "string", required: true };
    const command = commandWith(path, [flag, query]);
    const values = new Map<Flag, unknown>([
      [flag, value],
      [query, "2023-01-01"],
    ]);
    return buildRequest(manifestWith(), command, "http://api.test", values, undefined, []).url;
  };

  it("a path value keeps its slashes, colons and escapes; spaces and # are still encoded", () => {
    expect(reserved("path", "/{scope}/providers/X/locks", "subscriptions/s1/resourceGroups/my rg#1")).toBe(
      "http://api.test/subscriptions/s1/resourceGroups/my%20rg%231/providers/X/locks?api-version=2023-01-01",
    );
    expect(reserved("path", "/v2/{scope}", "sha256:ab%2Fcd")).toBe(
      "http://api.test/v2/sha256:ab%2Fcd?api-version=2023-01-01",
    );
  });

  it("a path value that carries its own query (a next link) sends it as the query, before the others", () => {
    expect(reserved("path", "/{next}", "v2/blobs/uploads/u1?_state=a%2Bb&_nouploadcache=false", "next")).toBe(
      "http://api.test/v2/blobs/uploads/u1?_state=a%2Bb&_nouploadcache=false&api-version=2023-01-01",
    );
  });

  it("a query value keeps / and : but never & = or +, which would split or change the pairs", () => {
    expect(reserved("query", "/things", "path:/a/b&c=d+e", "filter")).toBe(
      "http://api.test/things?filter=path:/a/b%26c%3Dd%2Be&api-version=2023-01-01",
    );
  });

  it("is read from the description: x-ms-skip-url-encoding on a Swagger 2.0 path parameter", async () => {
    const [command] = (
      await designDocument({
        swagger: "2.0",
        info: { title: "Locks", version: "1" },
        host: "management.example.com",
        paths: {
          "/{scope}/providers/Locks": {
            get: {
              operationId: "Locks_List",
              parameters: [
                { name: "scope", in: "path", required: true, type: "string", "x-ms-skip-url-encoding": true },
                { name: "top", in: "query", type: "integer" },
              ],
              responses: { "200": { description: "ok" } },
            },
          },
        },
      })
    ).commands;
    expect(command!.flags.find((f) => f.wire === "scope")).toMatchObject({ allowReserved: true });
    expect(command!.flags.find((f) => f.wire === "top")!.allowReserved).toBeUndefined();
  });
});

describe("query parameters: the style table's form, spaceDelimited, pipeDelimited and deepObject rows", () => {
  it.each([
    ["form", false, "?color=blue", "?color=blue,black,brown", "?color=R,100,G,200,B,150"],
    ["form", true, "?color=blue", "?color=blue&color=black&color=brown", "?R=100&G=200&B=150"],
  ] as const)("%s, explode %s", (style, explode, string, array, object) => {
    expect(queryOf(STRING, style, explode)).toBe(string);
    expect(queryOf(ARRAY, style, explode)).toBe(array);
    expect(queryOf(OBJECT, style, explode)).toBe(object);
  });

  it("form with an empty array is ?color= (the undefined column)", () => {
    expect(queryOf([], "form", false)).toBe("?color=");
  });

  it("spaceDelimited: ?color=blue%20black%20brown and ?color=R%20100%20G%20200%20B%20150", () => {
    expect(queryOf(ARRAY, "spaceDelimited", false)).toBe("?color=blue%20black%20brown");
    expect(queryOf(OBJECT, "spaceDelimited", false)).toBe("?color=R%20100%20G%20200%20B%20150");
  });

  it("pipeDelimited: ?color=blue%7Cblack%7Cbrown and ?color=R%7C100%7CG%7C200%7CB%7C150", () => {
    expect(queryOf(ARRAY, "pipeDelimited", false)).toBe("?color=blue%7Cblack%7Cbrown");
    expect(queryOf(OBJECT, "pipeDelimited", false)).toBe("?color=R%7C100%7CG%7C200%7CB%7C150");
  });

  it("deepObject: ?color%5BR%5D=100&color%5BG%5D=200&color%5BB%5D=150; nested objects and arrays go one bracket deeper", () => {
    expect(queryOf(OBJECT, "deepObject", true)).toBe("?color%5BR%5D=100&color%5BG%5D=200&color%5BB%5D=150");
    expect(queryOf({ created: { gte: 1, lt: 2 }, ids: ["a", "b"] }, "deepObject", true)).toBe(
      "?color%5Bcreated%5D%5Bgte%5D=1&color%5Bcreated%5D%5Blt%5D=2&color%5Bids%5D%5B%5D=a&color%5Bids%5D%5B%5D=b",
    );
    // Stripe's `expand` is a deepObject array.
    expect(queryOf(["customer", "invoice"], "deepObject", true)).toBe("?color%5B%5D=customer&color%5B%5D=invoice");
  });

  it("values are percent-encoded as RFC 3986 says (a space is %20, never +); several parameters join with &", () => {
    expect(queryOf("a b+c&d=e", "form", true)).toBe("?color=a%20b%2Bc%26d%3De");
    const tags = { ...flagOf("query", "array", "form", false), flag: "tags", wire: "tags" };
    const q = { ...flagOf("query", "string"), flag: "q", wire: "q" };
    const request = buildRequest(
      manifestWith(),
      commandWith("/search", [q, tags]),
      "http://api.test/v1/",
      new Map<Flag, unknown>([
        [q, "rock & roll"],
        [tags, ["track", "album"]],
      ]),
      undefined,
      [],
    );
    expect(request.url).toBe("http://api.test/v1/search?q=rock%20%26%20roll&tags=track,album");
  });

  it("the next page's cursor replaces the parameter, whatever else the query holds", () => {
    const cursor = { ...flagOf("query", "string"), flag: "cursor", wire: "cursor" };
    const types = flagOf("query", "array", "form", false);
    const request = buildRequest(
      manifestWith(),
      commandWith("/colors", [cursor, types]),
      "http://api.test",
      new Map<Flag, unknown>([
        [cursor, "c1"],
        [types, ARRAY],
      ]),
      undefined,
      [],
      { cursor: "c2" },
    );
    expect(request.url).toBe("http://api.test/colors?color=blue,black,brown&cursor=c2");
  });
});

describe("header and cookie parameters", () => {
  it.each([
    [false, "blue", "blue,black,brown", "R,100,G,200,B,150"],
    [true, "blue", "blue,black,brown", "R=100,G=200,B=150"],
  ] as const)("header, simple, explode %s", (explode, string, array, object) => {
    expect(send("header", STRING, "simple", explode).headers.color).toBe(string);
    expect(send("header", ARRAY, "simple", explode).headers.color).toBe(array);
    expect(send("header", OBJECT, "simple", explode).headers.color).toBe(object);
  });

  it("a header value is not percent-encoded (Appendix D)", () => {
    expect(send("header", "a b/c", "simple", false).headers.color).toBe("a b/c");
  });

  it("an object or list with nothing in it is no header, as it is no query pair; an empty text is sent", () => {
    // visualstudio.com's `headers` object header, given {}: sent as `headers:`, read as the key "" (Prism).
    for (const explode of [false, true]) {
      expect(send("header", {}, "simple", explode).headers).not.toHaveProperty("color");
      expect(send("header", [], "simple", explode).headers).not.toHaveProperty("color");
    }
    expect(send("header", "", "simple", false).headers.color).toBe("");
  });

  it("cookie, form: one cookie, or one cookie per value when exploded (cookies are separated by '; ', not '&')", () => {
    expect(send("cookie", STRING, "form", true).headers.cookie).toBe("color=blue");
    expect(send("cookie", ARRAY, "form", false).headers.cookie).toBe("color=blue,black,brown");
    expect(send("cookie", OBJECT, "form", false).headers.cookie).toBe("color=R,100,G,200,B,150");
    expect(send("cookie", ARRAY, "form", true).headers.cookie).toBe("color=blue; color=black; color=brown");
    expect(send("cookie", OBJECT, "form", true).headers.cookie).toBe("R=100; G=200; B=150");
    expect(send("cookie", "a b;c", "form", true).headers.cookie).toBe("color=a%20b%3Bc");
  });
});

describe("Swagger 2.0 collectionFormat, as the styles it maps to", () => {
  it("csv, ssv, tsv, pipes and multi in a query; csv in a path and a header", () => {
    expect(queryOf(ARRAY, "form", false)).toBe("?color=blue,black,brown"); // csv
    expect(queryOf(ARRAY, "spaceDelimited", false)).toBe("?color=blue%20black%20brown"); // ssv
    expect(queryOf(ARRAY, "tabDelimited", false)).toBe("?color=blue%09black%09brown"); // tsv
    expect(queryOf(ARRAY, "pipeDelimited", false)).toBe("?color=blue%7Cblack%7Cbrown"); // pipes
    expect(queryOf(ARRAY, "form", true)).toBe("?color=blue&color=black&color=brown"); // multi
    expect(pathOf(ARRAY, "simple", false)).toBe("blue,black,brown");
    expect(send("header", ARRAY, "pipeDelimited", false).headers.color).toBe("blue|black|brown");
  });
});

describe("help says how an array or object flag is given and sent", () => {
  it("names the repeated flag or comma list, and the request text", () => {
    expect(flagUsage({ flag: "type", in: "query", wire: "type", type: "array", explode: false })).toBe(
      "repeat --type or give a comma list (--type a --type b, or --type a,b); sent as ?type=a,b",
    );
    expect(flagUsage({ flag: "type", in: "query", wire: "type", type: "array" })).toContain("sent as ?type=a&type=b");
    expect(
      flagUsage({ flag: "filter", in: "query", wire: "filter", type: "object", style: "deepObject", explode: true }),
    ).toBe(`give JSON (--filter '{"k":"v","n":"1"}'); sent as ?filter%5Bk%5D=v&filter%5Bn%5D=1`);
    expect(flagUsage({ flag: "id", in: "path", wire: "id", type: "string", style: "label" })).toBe(
      "sent as .x in the path",
    );
    expect(flagUsage({ flag: "tags", in: "body", wire: "tags", type: "array" })).toContain(
      "sent in the request body as an array",
    );
    expect(flagUsage({ flag: "id", in: "path", wire: "id", type: "string" })).toBeUndefined();
  });
});

describe("credentials as the API takes them", () => {
  const schemes: Record<string, AuthScheme> = {
    header: { type: "apiKey", in: "header", name: "X-API-Key", env: { value: "T_HEADER" } },
    query: { type: "apiKey", in: "query", name: "api_key", env: { value: "T_QUERY" } },
    cookie: { type: "apiKey", in: "cookie", name: "sid", env: { value: "T_COOKIE" } },
    bearer: { type: "http", scheme: "bearer", bearerFormat: "JWT", env: { value: "T_BEARER" } },
    accountSid_authToken: { type: "http", scheme: "basic", env: { value: "T_PAIR" } },
    basicAuth: { type: "http", scheme: "basic", env: { username: "T_USER", password: "T_PASSWORD" } },
    oauth: {
      type: "oauth2",
      env: { accessToken: "T_ACCESS_TOKEN", clientId: "T_CLIENT_ID", clientSecret: "T_CLIENT_SECRET" },
      tokenUrl: "https://auth.test/token",
    },
  };
  const requestWith = (credentials: Array<[string, string]>) =>
    buildRequest(
      manifestWith(schemes),
      commandWith("/x", [], [Object.fromEntries(credentials.map(([s]) => [s, []]))]),
      "http://api.test",
      new Map(),
      undefined,
      credentials.map(([s, value]) => ({ scheme: schemes[s]!, value })),
    );
  const request = (scheme: string, credential: string) => requestWith([[scheme, credential]]);
  const places = secretPlaces(manifestWith(schemes));

  it("places each credential per its scheme: header, query, cookie, Bearer, Basic — several at once", () => {
    expect(request("header", "k1").headers["x-api-key"]).toBe("k1");
    expect(request("query", "k 2").url).toBe("http://api.test/x?api_key=k%202");
    expect(request("cookie", "k3").headers.cookie).toBe("sid=k3");
    // A session cookie copied from a browser is sent as it is; only what a cookie cannot carry is encoded.
    expect(request("cookie", "s%3Aab.c/d=+").headers.cookie).toBe("sid=s%3Aab.c/d=+");
    expect(request("cookie", 's;1 "é"').headers.cookie).toBe("sid=s%3B1%20%22%C3%A9%22");
    expect(request("bearer", "tok").headers.authorization).toBe("Bearer tok");
    expect(request("oauth", "tok").headers.authorization).toBe("Bearer tok");
    expect(request("accountSid_authToken", "AC123:secret").headers.authorization).toBe(
      `Basic ${Buffer.from("AC123:secret").toString("base64")}`,
    );
    // RFC 7617: a value without a colon is the user with an empty password (Stripe's `sk_…:`).
    expect(request("accountSid_authToken", "sk_test").headers.authorization).toBe(
      `Basic ${Buffer.from("sk_test:").toString("base64")}`,
    );
    const both = requestWith([
      ["query", "app-key"],
      ["header", "user-token"],
      ["cookie", "s1"],
    ]);
    expect(both.url).toBe("http://api.test/x?api_key=app-key");
    expect(both.headers).toMatchObject({ "x-api-key": "user-token", cookie: "sid=s1" });
  });

  it("the dry run replaces every credential where it was placed, however short, and keeps the query's own encoding", () => {
    const shown = redactRequest(request("query", "k 2"), ["k 2"], places);
    expect(shown.url).toBe("http://api.test/x?api_key=[REDACTED]");
    expect(
      redactRequest(request("accountSid_authToken", "AC123:secret"), ["AC123:secret"], places).headers.authorization,
    ).toBe("Basic [REDACTED]");
    const both = redactRequest(
      requestWith([
        ["query", "a"],
        ["header", "b"],
        ["cookie", "c"],
      ]),
      ["a", "b", "c"],
      places,
    );
    expect(both.url).toBe("http://api.test/x?api_key=[REDACTED]");
    expect(both.headers).toMatchObject({ "x-api-key": "[REDACTED]", cookie: "sid=[REDACTED]" });
  });

  it("an API's error message loses the credential it echoes, and a key too short to tell from letters only as a word", () => {
    const refusal = (message: string, secrets: string[]) =>
      errorFor({ status: 401, headers: {}, data: { message } }, secrets).message.replace(/ \(HTTP 401\)$/, "");
    expect(refusal("key 'wrong-token-value' is not valid", ["wrong-token-value"])).toBe(
      "key '[REDACTED]' is not valid",
    );
    // A local test server's one-letter key: "k" is cut where it stands alone, not out of "key" or "keys".
    expect(refusal("key k is not one of the keys", ["k"])).toBe("key [REDACTED] is not one of the keys");
  });

  it("a SigV4 signature keeps its scope and signed headers in a dry run, whatever the headers' names", () => {
    const signature = (headers: string) =>
      `AWS4-HMAC-SHA256 Credential=AKIAEXAMPLE/20261207/us-east-1/sso/aws4_request, SignedHeaders=${headers}, Signature=${"ab".repeat(32)}`;
    const shown = (headers: string) =>
      redactRequest(
        { method: "GET", url: "http://api.test/x", headers: { authorization: signature(headers) } },
        ["AKIAEXAMPLE"],
        places,
      ).headers.authorization;
    // AWS SSO signs `x-amz-sso_bearer_token`: the form is kept, the key id and the signature cut.
    expect(shown("host;x-amz-date;x-amz-sso_bearer_token")).toBe(
      "AWS4-HMAC-SHA256 Credential=[REDACTED]/20261207/us-east-1/sso/aws4_request, SignedHeaders=host;x-amz-date;x-amz-sso_bearer_token, Signature=[REDACTED]",
    );
    expect(shown("host;x-amz-date")).not.toContain("AKIAEXAMPLE");
  });

  it("a secret-named field is replaced in a dry run whatever carried it, and a known value anywhere else", () => {
    const flag: Flag = { flag: "password", in: "body", wire: "password", type: "string", required: false };
    const note: Flag = { flag: "note", in: "body", wire: "note", type: "string", required: false };
    const token: Flag = { flag: "access-token", in: "query", wire: "access_token", type: "string", required: false };
    const command = { ...commandWith("/x", [flag, note, token]), operation: { method: "POST", path: "/x" } };
    const sent = buildRequest(
      manifestWith(schemes),
      command,
      "http://api.test",
      new Map<Flag, unknown>([
        [flag, "hunter2"],
        [note, "key k-12345 inside"],
        [token, "t"],
      ]),
      undefined,
      [],
    );
    const shown = redactRequest(sent, ["k-12345"], places);
    expect(shown.url).toBe("http://api.test/x?access_token=[REDACTED]");
    expect(JSON.parse(shown.body!)).toEqual({ password: "[REDACTED]", note: "key [REDACTED] inside" });
  });

  it("explains each scheme without a value: header name, query name, cookie name, Bearer, Basic and how its value is made", () => {
    expect(credentialHow("header", schemes.header!)).toBe(
      "T_HEADER is sent as the X-API-Key header (X-API-Key: <value>).",
    );
    expect(credentialHow("query", schemes.query!)).toBe(
      "T_QUERY is sent as the query parameter api_key (?api_key=<value>).",
    );
    expect(credentialHow("cookie", schemes.cookie!)).toBe("T_COOKIE is sent as the cookie sid (Cookie: sid=<value>).");
    expect(credentialHow("bearer", schemes.bearer!)).toBe(
      'T_BEARER is sent as "Authorization: Bearer <value>" (a JWT).',
    );
    const pair = credentialHow("accountSid_authToken", {
      ...schemes.accountSid_authToken!,
      description: "Your Account SID and Auth Token.",
    });
    expect(pair).toContain("T_PAIR is sent as HTTP Basic: set it to <user>:<password>");
    expect(pair).toContain("for accountSid_authToken, <accountSid>:<authToken>");
    expect(pair).toContain('base64-encodes it into "Authorization: Basic <base64>"');
    expect(pair).toContain("The API says: Your Account SID and Auth Token.");
    expect(credentialHow("basicAuth", schemes.basicAuth!)).toContain("T_USER and T_PASSWORD are sent as HTTP Basic");
    expect(credentialHow("oauth", schemes.oauth!)).toContain(
      "T_CLIENT_ID and T_CLIENT_SECRET (the client credentials grant at https://auth.test/token)",
    );
    const optional = commandCredential(manifestWith(schemes), {
      ...commandWith("/x", [], [{ header: [] }]),
      authOptional: true,
    });
    expect(optional).toBe("Optional (the API also answers without it): Needs T_HEADER.");
    expect(
      commandCredential(manifestWith(schemes), commandWith("/x", [], [{ query: [], header: [] }, { bearer: [] }])),
    ).toBe("Needs one of: (1) T_QUERY and T_HEADER; (2) T_BEARER — the first that is set is used.");
  });
});

describe("a command's security: the document's alternatives, made to agree with the parameters schemes supply", () => {
  const known = {
    key: { type: "apiKey" as const, in: "query" as const, name: "key" },
    token: { type: "apiKey" as const, in: "query" as const, name: "token" },
    basic: { type: "http" as const, scheme: "basic" },
    bearer: { type: "http" as const, scheme: "bearer" },
    mtls: { type: "mutualTLS" as const },
    digest: { type: "http" as const, scheme: "digest" },
  };
  const param = (name: string, required = true) => ({
    name,
    in: "query" as const,
    required,
    type: "string" as const,
    deprecated: false,
    style: "form" as const,
    explode: true,
  });
  const of = (security: Array<Record<string, string[]>>, parameters: ReturnType<typeof param>[] = []) =>
    authOf({ security, parameters } as never, { security: [], securitySchemes: known });

  it("keeps alternatives and AND sets as stated, and leaves out what the CLI cannot send", () => {
    expect(of([{ basic: [] }, { bearer: [] }])).toEqual({ auth: [{ basic: [] }, { bearer: [] }], optional: false });
    expect(of([{ basic: [], key: [] }])).toEqual({ auth: [{ basic: [], key: [] }], optional: false });
    expect(of([{}, { key: [] }])).toEqual({ auth: [{ key: [] }], optional: true });
    expect(of([{ mtls: [] }, { digest: [] }])).toMatchObject({
      auth: [],
      warning: expect.stringContaining("cannot send"),
    });
    expect(of([{ mtls: [] }, { bearer: [] }])).toEqual({ auth: [{ bearer: [] }], optional: false });
    expect(of([])).toEqual({ auth: [], optional: false });
  });

  it("where required parameters are what several alternatives supply, the API needs them together", () => {
    expect(of([{ key: [] }, { token: [] }], [param("key"), param("token")])).toEqual({
      auth: [{ key: [], token: [] }],
      optional: false,
      warning: expect.stringContaining("key and token together"),
    });
    // An alternative already holding both is kept, the others dropped.
    expect(of([{ key: [] }, { key: [], token: [] }], [param("key"), param("token")])).toEqual({
      auth: [{ key: [], token: [] }],
      optional: false,
    });
    // One required parameter: only alternatives holding its scheme remain, and the credential is no longer optional.
    expect(of([{}, { key: [] }, { bearer: [] }], [param("key")])).toEqual({ auth: [{ key: [] }], optional: false });
    // A required parameter of a scheme no alternative names joins each of them: the API still needs its own
    // credential (Apideck: `apiKey` in Authorization, and the app id header `applicationId` supplies).
    expect(of([{ bearer: [] }], [param("key")])).toEqual({ auth: [{ bearer: [], key: [] }], optional: false });
    expect(of([{ basic: [] }, { bearer: [] }], [param("key")])).toEqual({
      auth: [
        { basic: [], key: [] },
        { bearer: [], key: [] },
      ],
      optional: false,
    });
    // Where no credential was needed, the parameter's scheme alone is enough.
    expect(of([{}, { bearer: [] }], [param("key")])).toEqual({
      auth: [{ key: [] }, { bearer: [], key: [] }],
      optional: false,
    });
    // An optional parameter a scheme supplies changes nothing.
    expect(of([{ bearer: [] }], [param("key", false)])).toEqual({ auth: [{ bearer: [] }], optional: false });
  });

  it("an AND requirement of schemes that compete for one place is one alternative per competing scheme", () => {
    const oauth = {
      a: { type: "oauth2" as const, flows: {} },
      c: { type: "oauth2" as const, flows: {} },
      key: known.key,
    };
    const google = authOf({ security: [{ a: ["x"], c: ["x"] }], parameters: [] } as never, {
      security: [],
      securitySchemes: oauth,
    });
    expect(google).toEqual({ auth: [{ a: ["x"] }, { c: ["x"] }], optional: false });
    expect(
      authOf({ security: [{ a: [], c: [], key: [] }], parameters: [] } as never, {
        security: [],
        securitySchemes: oauth,
      }).auth,
    ).toEqual([
      { a: [], key: [] },
      { c: [], key: [] },
    ]);
  });

  it("schemes a document declares but never requires are optional alternatives", () => {
    expect(authOf({ parameters: [] } as never, { security: [], securitySchemes: known }, true)).toEqual({
      auth: [{ basic: [] }, { bearer: [] }, { key: [] }, { token: [] }],
      optional: true,
    });
  });
});

// The normalizer over small documents of each version: style and explode with OpenAPI's defaults, Swagger's
// collectionFormat mapped onto them, and the design keeping only what differs from the defaults.
const scratch = tempDir("inter-styles-");
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

async function model(name: string, document: object) {
  const file = join(scratch, `${name}.json`);
  writeFileSync(file, JSON.stringify(document));
  return (await readOperationModel(file, scratch)).model;
}

const config: InterConfig = {
  product: { name: "T", binary: "t" },
  inputs: { openapi: "x" },
  api: { baseUrl: "http://127.0.0.1:9" },
};

describe("normalize: a server's URL with its variables' defaults", () => {
  it("fills each variable in, a path value that begins with a slash after one making one slash", async () => {
    const m = await model("servers", {
      openapi: "3.0.0",
      info: { title: "t", version: "1" },
      paths: {},
      servers: [
        // Red Hat's catalog inventory.
        { url: "https://cloud.redhat.com/{basePath}", variables: { basePath: { default: "/api/catalog/v1.0" } } },
        { url: "https://{region}.api.test/v2/", variables: { region: { default: "eu", enum: ["eu", "us"] } } },
        { url: "https://api.test/{version}", variables: { version: { default: "v3" } } },
      ],
    });
    expect(m.servers.map((s) => s.url)).toEqual([
      "https://cloud.redhat.com/api/catalog/v1.0",
      "https://eu.api.test/v2",
      "https://api.test/v3",
    ]);
  });
});

describe("normalize: style and explode from OpenAPI 3.0 / 3.1, collectionFormat from Swagger 2.0", () => {
  const v3 = (openapi: string) => ({
    openapi,
    info: { title: "t", version: "1" },
    paths: {
      "/things/{id}": {
        get: {
          operationId: "getThing",
          parameters: [
            {
              name: "id",
              in: "path",
              required: true,
              style: "label",
              schema: { type: "array", items: { type: "string" } },
            },
            { name: "type", in: "query", explode: false, schema: { type: "array", items: { type: "string" } } },
            { name: "tags", in: "query", schema: { type: "array", items: { type: "string" } } },
            {
              name: "words",
              in: "query",
              style: "spaceDelimited",
              schema: { type: "array", items: { type: "string" } },
            },
            {
              name: "filter",
              in: "query",
              style: "deepObject",
              explode: true,
              schema: { type: "object", properties: { status: { type: "string" } } },
            },
            { name: "X-Ids", in: "header", explode: true, schema: { type: "array", items: { type: "integer" } } },
            { name: "session", in: "cookie", schema: { type: "string" } },
            { name: "bad", in: "query", style: "matrix", schema: { type: "string" } },
          ],
          responses: { "200": { description: "ok" } },
        },
      },
    },
  });

  it.each(["3.0.3", "3.1.0"])("OpenAPI %s", async (version) => {
    const m = await model(`v${version}`, v3(version));
    const params = Object.fromEntries(
      m.operations[0]!.parameters.map((p) => [p.name, { style: p.style, explode: p.explode }]),
    );
    expect(params).toEqual({
      id: { style: "label", explode: false },
      type: { style: "form", explode: false },
      tags: { style: "form", explode: true },
      words: { style: "spaceDelimited", explode: false },
      filter: { style: "deepObject", explode: true },
      "X-Ids": { style: "simple", explode: true },
      session: { style: "form", explode: true },
      // A style the table does not allow in a query is ignored: the default.
      bad: { style: "form", explode: true },
    });
    const flags = Object.fromEntries(
      designCommands(m, config, []).plan.commands[0]!.flags.map((f) => [
        f.wire,
        { style: f.style, explode: f.explode },
      ]),
    );
    expect(flags).toEqual({
      id: { style: "label", explode: undefined },
      type: { style: undefined, explode: false },
      tags: { style: undefined, explode: undefined },
      words: { style: "spaceDelimited", explode: undefined },
      filter: { style: "deepObject", explode: true },
      "X-Ids": { style: undefined, explode: true },
      session: { style: undefined, explode: undefined },
      bad: { style: undefined, explode: undefined },
    });
  });

  it("Swagger 2.0: csv (the default), ssv, tsv, pipes, multi; multi outside a query is csv", async () => {
    const array = (name: string, at: string, collectionFormat?: string) => ({
      name,
      in: at,
      type: "array",
      items: { type: "string" },
      ...(collectionFormat ? { collectionFormat } : {}),
      ...(at === "path" ? { required: true } : {}),
    });
    const m = await model("v2", {
      swagger: "2.0",
      info: { title: "t", version: "1" },
      paths: {
        "/things/{ids}": {
          get: {
            operationId: "getThings",
            parameters: [
              array("ids", "path"),
              array("plain", "query"),
              array("csv", "query", "csv"),
              array("ssv", "query", "ssv"),
              array("tsv", "query", "tsv"),
              array("pipes", "query", "pipes"),
              array("multi", "query", "multi"),
              array("X-Multi", "header", "multi"),
            ],
            responses: { "200": { description: "ok" } },
          },
        },
      },
    });
    const params = Object.fromEntries(m.operations[0]!.parameters.map((p) => [p.name, `${p.style}/${p.explode}`]));
    expect(params).toEqual({
      ids: "simple/false",
      plain: "form/false",
      csv: "form/false",
      ssv: "spaceDelimited/false",
      tsv: "tabDelimited/false",
      pipes: "pipeDelimited/false",
      multi: "form/true",
      "X-Multi": "simple/false",
    });
  });
});

describe("a parameter whose content is JSON", () => {
  it("an object or list goes as one JSON text, given as JSON; a JSON string stays the text given", async () => {
    const json = (schema: object) => ({ "application/json": { schema } });
    const m = await model("json-content", {
      openapi: "3.0.3",
      info: { title: "t", version: "1" },
      paths: {
        "/charts/{id}": {
          get: {
            operationId: "listCharts",
            parameters: [
              { name: "id", in: "path", required: true, content: json({ type: "string" }) },
              {
                name: "q",
                in: "query",
                content: json({ type: "object", required: ["page"], properties: { page: { type: "integer" } } }),
              },
              { name: "ids", in: "query", content: json({ type: "array", items: { type: "integer" } }) },
              { name: "X-Filter", in: "header", content: json({ type: "object" }) },
            ],
            responses: { "200": { description: "ok" } },
          },
        },
      },
    });
    const params = m.operations[0]!.parameters;
    expect(params.map((p) => [p.name, p.type, p.json ?? false])).toEqual([
      ["id", "string", false],
      ["q", "object", true],
      ["ids", "array", true],
      ["X-Filter", "object", true],
    ]);
    const flags: Flag[] = [
      { ...flagOf("path", "string"), flag: "id", wire: "id" },
      { ...flagOf("query", "object"), flag: "q", wire: "q", json: true },
      { ...flagOf("query", "array"), flag: "ids", wire: "ids", items: "integer", json: true },
      { ...flagOf("header", "object"), flag: "x-filter", wire: "X-Filter", json: true },
    ];
    const command = commandWith("/charts/{id}", flags);
    const sent = buildRequest(
      manifestWith(),
      command,
      "http://api.test",
      new Map<Flag, unknown>([
        [flags[0]!, "c1"],
        [flags[1]!, { page: 0, order: "a,b" }],
        [flags[2]!, [1, 2]],
        [flags[3]!, { tag: "x" }],
      ]),
      undefined,
      [],
    );
    // As a form-style object, q was `page=0&order=a,b`: the API reads one JSON text under its name.
    expect(sent.url).toBe(
      "http://api.test/charts/c1?q=%7B%22page%22%3A0%2C%22order%22%3A%22a%2Cb%22%7D&ids=%5B1%2C2%5D",
    );
    expect(sent.headers["x-filter"]).toBe('{"tag":"x"}');
    expect(flagUsage(flags[1]!)).toContain('sent as ?q={"k":"v","n":"1"} (JSON text)');
    // In a header, JSON past ASCII goes as `\u` escapes: `é` went as the Latin-1 byte E9, `日本` was refused.
    const named = (value: unknown) =>
      buildRequest(
        manifestWith(),
        command,
        "http://api.test",
        new Map<Flag, unknown>([
          [flags[0]!, "c1"],
          [flags[3]!, value],
        ]),
        undefined,
        [],
      ).headers["x-filter"];
    expect(named({ name: "café 日本.csv" })).toBe('{"name":"caf\\u00e9 \\u65e5\\u672c.csv"}');
    expect(JSON.parse(named({ name: "café 日本.csv" })!)).toEqual({ name: "café 日本.csv" });
  });
});

describe("design: each command's alternatives, a variable per scheme, the scheme's own description as plain text", () => {
  it("takes the operation's own security, marks an optional credential, and names each scheme's variables", async () => {
    const ok = { responses: { "200": { description: "ok" } } };
    const m = await model("security", {
      openapi: "3.1.0",
      info: { title: "t", version: "1" },
      security: [{ basicAuth: [] }, { bearerAuth: [] }],
      components: {
        securitySchemes: {
          basicAuth: {
            type: "http",
            scheme: "basic",
            description:
              "Use your <b>account SID</b> as the user and your [auth token](https://example.com/token) as the password.",
          },
          bearerAuth: { type: "http", scheme: "bearer" },
          appId: { type: "apiKey", in: "query", name: "app_id" },
          appKey: { type: "apiKey", in: "header", name: "X-App-Key" },
        },
      },
      paths: {
        "/a": { get: { operationId: "listA", ...ok } },
        "/b": { get: { operationId: "listB", security: [{ basicAuth: [] }], ...ok } },
        "/c": { get: { operationId: "listC", security: [{}, { appKey: [] }], ...ok } },
        "/d": { get: { operationId: "listD", security: [{ appId: [], appKey: [] }], ...ok } },
        "/e": { get: { operationId: "listE", security: [], ...ok } },
      },
    });
    const { plan, warnings } = designCommands(m, config, []);
    const byOp = Object.fromEntries(
      plan.commands.map((c) => [c.operation.operationId, { auth: c.auth, optional: c.authOptional }]),
    );
    expect(byOp).toEqual({
      listA: { auth: [{ basicAuth: [] }, { bearerAuth: [] }], optional: undefined },
      listB: { auth: [{ basicAuth: [] }], optional: undefined },
      listC: { auth: [{ appKey: [] }], optional: true },
      listD: { auth: [{ appId: [], appKey: [] }], optional: undefined },
      listE: { auth: [], optional: undefined },
    });
    expect(plan.auth.schemes.basicAuth).toEqual({
      type: "http",
      scheme: "basic",
      description: "Use your account SID as the user and your auth token as the password.",
      env: { username: "T_BASIC_AUTH_USERNAME", password: "T_BASIC_AUTH_PASSWORD" },
    });
    expect(plan.auth.schemes.appId!.env).toEqual({ value: "T_APP_ID" });
    expect(warnings.filter((w) => /basicAuth|appId/.test(w))).toEqual([]);
  });
});

describe("capabilities.json stays schema-valid with styles, scheme descriptions and optional credentials", () => {
  const validate = schemaValidator("capabilities.schema.json");
  it.each([
    "3.0/json/parameters-style.json",
    "3.1/json/security.json",
    "3.0/json/security-multiple.json",
    "2.0/json/petstore-expanded.json",
  ])("%s", async (name) => {
    const { model: m } = await readOperationModel(join(REPO, "node_modules/@readme/oas-examples", name), REPO);
    const commands = designCommands(m, config, []);
    const skills = planSkills(parseBrief("# T\n\nA test.\n"), commands.plan.commands, "T");
    expect(validate(assembleCapabilities(commands.plan, skills.plan))).toEqual([]);
    const styled = commands.plan.commands
      .flatMap((c) => c.flags)
      .filter((f) => f.style !== undefined || f.explode !== undefined);
    if (name.includes("parameters-style")) expect(styled.length).toBeGreaterThan(20);
  });
});

describe("a parameter the document allows one value", () => {
  it("is no required flag: the CLI sends that value unless the flag gives it, and refuses another", async () => {
    const m = await model("one-value", {
      openapi: "3.0.3",
      info: { title: "t", version: "1" },
      paths: {
        "/#Action=AssumeRole": {
          post: {
            operationId: "AssumeRole",
            parameters: [
              { name: "Action", in: "query", required: true, schema: { type: "string", enum: ["AssumeRole"] } },
              { name: "Version", in: "query", required: true, schema: { type: "string", enum: ["2011-06-15"] } },
              { name: "RoleArn", in: "query", required: true, schema: { type: "string" } },
            ],
            responses: { "200": { description: "ok" } },
          },
        },
      },
    });
    const [command] = designCommands(m, config, []).plan.commands as unknown as Command[];
    const byWire = Object.fromEntries(command!.flags.map((f) => [f.wire, f]));
    expect(byWire.Action).toMatchObject({ required: false, default: "AssumeRole", sentIfAbsent: true });
    expect(byWire.RoleArn).toMatchObject({ required: true });
    const argv = (args: string[]) =>
      bindFlags(
        command!,
        splitArgv(args, () => "value", command!.flags),
        false,
      );
    const url = (args: string[]) =>
      buildRequest(manifestWith(), command!, "http://api.test", argv(args), undefined, []).url;
    const query = (args: string[]) => Object.fromEntries(new URL(url(args)).searchParams);
    expect(query(["--role-arn", "arn:aws:iam::1:role/r"])).toEqual({
      Action: "AssumeRole",
      Version: "2011-06-15",
      RoleArn: "arn:aws:iam::1:role/r",
    });
    expect(() => argv(["--role-arn", "r", "--action", "GetCallerIdentity"])).toThrow(/AssumeRole/);
    expect(() => argv([])).toThrow(/role-arn/);
  });
});

describe("path keys that are not a request's path, bodies that are one file, lists of values with a format", () => {
  it("a fragment in a path key is never sent, and the query follows the path; a query in a path key goes first", () => {
    const action = flagOf("query", "string");
    const fragment = commandWith("/{queue}/#Action=SendMessage", [
      { ...action, flag: "queue", wire: "queue", in: "path" },
      { ...action, flag: "action", wire: "Action" },
    ]);
    const sent = buildRequest(
      manifestWith(),
      fragment,
      "http://api.test",
      new Map([
        [fragment.flags[0]!, "q1"],
        [fragment.flags[1]!, "SendMessage"],
      ]),
      undefined,
      [],
    );
    expect(sent.url).toBe("http://api.test/q1/?Action=SendMessage");
    const fixed = commandWith("/{bucket}?acl", [{ ...action, flag: "bucket", wire: "bucket", in: "path" }, action]);
    const acl = buildRequest(
      manifestWith(),
      fixed,
      "http://api.test",
      new Map([
        [fixed.flags[0]!, "b"],
        [fixed.flags[1]!, "red"],
      ]),
      undefined,
      [],
    );
    expect(acl.url).toBe("http://api.test/b?acl&color=red");
  });

  it("a list of objects takes each JSON value whole (commas and all), and a JSON list given once as its items", () => {
    const flag: Flag = { ...flagOf("body", "array"), flag: "entries", wire: "entries", items: "object" };
    const command = { ...commandWith("/x", [flag]), operation: { method: "POST", path: "/x" } };
    const bind = (argv: string[]) =>
      [
        ...bindFlags(
          command,
          splitArgv(argv, (n) => (n === "entries" ? "value" : "unknown"), command.flags),
          false,
        ).values(),
      ][0];
    expect(bind(["--entries", '{"id":"a","body":"x,y"}', "--entries", '{"id":"b"}'])).toEqual([
      { id: "a", body: "x,y" },
      { id: "b" },
    ]);
    expect(bind(["--entries", '[{"id":"a","n":1},{"id":"b"}]'])).toEqual([{ id: "a", n: 1 }, { id: "b" }]);
    expect(() => bind(["--entries", "{not json"])).toThrow(/JSON value/);
  });

  it("null given to a body flag whose enum lists it, or to a nullable number, is JSON null; a string's stays text", () => {
    const flags: Flag[] = [
      {
        ...flagOf("body", "string"),
        flag: "state-reason",
        wire: "state_reason",
        enum: ["completed", null],
        nullable: true,
      },
      { ...flagOf("body", "integer"), flag: "milestone", wire: "milestone", nullable: true },
      { ...flagOf("body", "string"), flag: "note", wire: "note", nullable: true },
      { ...flagOf("query", "string"), flag: "state", wire: "state", enum: ["open", null] },
    ];
    const command = { ...commandWith("/x", flags), operation: { method: "PATCH", path: "/x" } };
    const bind = (argv: string[]) =>
      Object.fromEntries(
        [
          ...bindFlags(
            command,
            splitArgv(argv, () => "value", command.flags),
            false,
          ),
        ].map(([f, v]) => [f.flag, v]),
      );
    // Sent as the text "null", the listed choice was refused as none of the enum's values.
    expect(bind(["--state-reason", "null", "--milestone", "null", "--note", "null", "--state", "null"])).toEqual({
      "state-reason": null,
      milestone: null,
      note: "null",
      state: "null",
    });
    expect(bind(["--state-reason", "completed", "--milestone", "3"])).toEqual({
      "state-reason": "completed",
      milestone: 3,
    });
    expect(() => bind(["--state-reason", "nil"])).toThrow(/must be one of completed, null/);
  });

  it("a list of lists takes each JSON list whole, or a JSON list of lists given once; help says so", () => {
    const flag: Flag = { ...flagOf("body", "array"), flag: "access-scope", wire: "access_scope", items: "array" };
    const command = { ...commandWith("/x", [flag]), operation: { method: "POST", path: "/x" } };
    const bind = (argv: string[]) =>
      [
        ...bindFlags(
          command,
          splitArgv(argv, (n) => (n === "access-scope" ? "value" : "unknown"), command.flags),
          false,
        ).values(),
      ][0];
    // Split at commas, a list went as the strings `["balances"` and `"details"]`.
    expect(bind(["--access-scope", '["balances","details"]'])).toEqual([["balances", "details"]]);
    expect(bind(["--access-scope", '["balances"]', "--access-scope", "[]"])).toEqual([["balances"], []]);
    expect(bind(["--access-scope", '[["balances"],["details",1]]'])).toEqual([["balances"], ["details", 1]]);
    expect(() => bind(["--access-scope", "balances,details"])).toThrow(/JSON value/);
    expect(() => bind(["--access-scope", '"balances"'])).toThrow(/takes lists/);
    expect(flagUsage({ ...flag, items: "array" })).toMatch(/one JSON list each.*'\[\["a","b"\],\["c"\]\]'/);
  });

  it("a Swagger 2 body that is one file goes raw where a raw type is offered; an array's items give its format", async () => {
    const m = await model("whole-file", {
      swagger: "2.0",
      info: { title: "t", version: "1" },
      paths: {
        "/ocr": {
          post: {
            operationId: "ocrStream",
            consumes: ["multipart/form-data", "application/octet-stream"],
            parameters: [{ name: "Image", in: "body", required: true, schema: { type: "object", format: "file" } }],
            responses: { "200": { description: "ok" } },
          },
        },
        "/images": {
          get: {
            operationId: "listImages",
            parameters: [{ name: "ids", in: "query", type: "array", items: { type: "string", format: "uuid" } }],
            responses: { "200": { description: "ok" } },
          },
        },
      },
    });
    const ocr = m.operations.find((o) => o.operationId === "ocrStream")!;
    expect(ocr.body).toMatchObject({ mediaType: "application/octet-stream", raw: true });
    const ids = m.operations.find((o) => o.operationId === "listImages")!.parameters.find((p) => p.name === "ids")!;
    expect(ids).toMatchObject({ type: "array", format: "uuid" });
  });
});

describe("a boolean flag given as its usage reads", () => {
  it("--archived false and --archived true are values; --archived alone is true, --no-archived false", () => {
    const flag: Flag = { ...flagOf("query", "boolean"), flag: "archived", wire: "archived" };
    const command = commandWith("/x", [flag]);
    const kind = (n: string) => (n === "archived" ? ("boolean" as const) : ("unknown" as const));
    const bind = (argv: string[]) => {
      const parsed = splitArgv(argv, kind, command.flags);
      return { value: [...bindFlags(command, parsed, false).values()][0], positionals: parsed.positionals };
    };
    expect(bind(["--archived", "false"])).toEqual({ value: false, positionals: [] });
    expect(bind(["--archived", "true"])).toEqual({ value: true, positionals: [] });
    expect(bind(["--archived"])).toEqual({ value: true, positionals: [] });
    expect(bind(["--no-archived"])).toEqual({ value: false, positionals: [] });
    // Anything else after it is not its value: a stray argument, which the CLI refuses.
    expect(bind(["--archived", "maybe"])).toEqual({ value: true, positionals: ["maybe"] });
  });
});

describe("a scheme's description as auth messages quote it: whole sentences or none", () => {
  const described = (description: string) =>
    planScheme({ type: "apiKey", in: "header", name: "X-Key", description } as never, { value: "K" }).description;
  it("drops a fragment that only points to a link, keeps whole sentences, and never cuts one", () => {
    expect(described("For more information")).toBeUndefined();
    expect(described("Use the key from your dashboard. See [the docs](https://example.com/auth) for more.")).toBe(
      "Use the key from your dashboard.",
    );
    expect(described("A personal access token with the api scope")).toBe("A personal access token with the api scope");
    const long = `${"A sentence that goes on and on. ".repeat(12)}`;
    const kept = described(long)!;
    expect(kept.length).toBeLessThanOrEqual(300);
    expect(kept.endsWith(".")).toBe(true);
  });
});

describe("an answer the description's own Accept-Encoding asked compressed", () => {
  it("is read as the bytes before compression: JSON, and a file written with --output", async () => {
    // beezup's required `Accept-Encoding` header list: `--accept-encoding gzip` printed the gzip bytes as text.
    const json = Buffer.from(JSON.stringify({ name: "café", n: 1 }));
    const file = Buffer.from(Array.from({ length: 256 }, (_, i) => i));
    const coders: Record<string, (b: Buffer) => Buffer> = {
      gzip: gzipSync,
      deflate: deflateSync,
      br: brotliCompressSync,
    };
    const server = createServer((req, res) => {
      const coding = String(req.headers["accept-encoding"]);
      const body = req.url === "/file" ? file : json;
      const type = req.url === "/file" ? "application/octet-stream" : "application/json";
      const sent = coders[coding]!(body);
      res.writeHead(200, { "content-type": type, "content-encoding": coding, "content-length": sent.length });
      res.end(sent);
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const dir = tempDir("inter-encoding-");
    try {
      for (const coding of Object.keys(coders)) {
        const answer = await sendRequest({ method: "GET", url: `${url}/json`, headers: { "accept-encoding": coding } });
        expect(answer.data).toEqual({ name: "café", n: 1 });
        const output = join(dir, `${coding}.bin`);
        const written = await sendRequest(
          { method: "GET", url: `${url}/file`, headers: { "accept-encoding": coding } },
          { output, kind: "binary" },
        );
        expect(written.written).toMatchObject({ bytes: 256 });
        expect(readFileSync(output).equals(file)).toBe(true);
      }
    } finally {
      server.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
