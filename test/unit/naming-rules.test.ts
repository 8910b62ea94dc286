import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { InterConfig } from "../../src/config/types.js";
import { designCommands } from "../../src/stages/design/commands.js";
import { parseBrief } from "../../src/stages/design/context.js";
import { firstSentence, planSkills } from "../../src/stages/design/skills.js";
import { readOperationModel } from "../../src/stages/openapi/normalize.js";
import { misleadingNames } from "../../src/stages/inspect/misleading-names.js";
import { REPO, tempDir } from "../helpers.js";
import { judgeOperations, splitTags } from "../naming-checker.js";
import type { Facts } from "../../src/stages/inspect/probes.js";
import type { Receipt } from "../../src/stages/inspect/receipt.js";

// Issue #40, one shape at a time: names that never mislead (docs/naming.md).

const config: InterConfig = { product: { name: "Shapes", binary: "shapes" }, inputs: { openapi: "x" } };
type Op = {
  summary?: string;
  operationId?: string;
  description?: string;
  tags?: string[];
  responses?: object;
  requestBody?: object;
  deprecated?: boolean;
};

async function design(
  paths: Record<string, Record<string, Op>>,
  tags: Array<{ name: string; description?: string }> = [],
) {
  const document = {
    openapi: "3.0.3",
    info: { title: "Shapes", version: "1.0.0" },
    tags,
    paths: Object.fromEntries(
      Object.entries(paths).map(([path, methods]) => [
        path,
        Object.fromEntries(
          Object.entries(methods).map(([method, op]) => [
            method,
            {
              ...op,
              parameters: [...path.matchAll(/\{([^}]+)\}/g)].map((m) => ({
                name: m[1],
                in: "path",
                required: true,
                schema: { type: "string" },
              })),
              responses: op.responses ?? { "200": { description: "ok" } },
            },
          ]),
        ),
      ]),
    ),
  };
  const file = join(tempDir("inter-naming-"), "openapi.json");
  writeFileSync(file, JSON.stringify(document));
  const { model } = await readOperationModel(file, REPO);
  const { plan, warnings } = designCommands(model, config, []);
  const name = (method: string, path: string) =>
    plan.commands.find((c) => c.operation.method === method && c.operation.path === path)!;
  return { plan, warnings, name: (method: string, path: string) => name(method, path).name, command: name };
}

describe("the action agrees with the method", () => {
  it("a DELETE that says 'return' ends something: never named as a read", async () => {
    const { name, command } = await design({
      "/loans/{loanId}": {
        delete: { summary: "Return a lent copy (ends the loan)", tags: ["loans"] },
        get: { summary: "Return one loan", tags: ["loans"] },
      },
    });
    expect(name("DELETE", "/loans/{loanId}")).toBe("loans return");
    expect(command("DELETE", "/loans/{loanId}").nameSource.action.reason).toMatch(/on a DELETE it ends something/);
    expect(name("GET", "/loans/{loanId}")).toBe("loans get");
  });

  it("a DELETE described as a read or a creation is a delete; a GET described as a write reads", async () => {
    const { name, command } = await design({
      "/riddles": { delete: { summary: "Create a random riddle entry", tags: ["riddles"] } },
      "/anything/{id}": { delete: { summary: "Get anything", tags: ["anything"] } },
      "/cookies/set": { get: { summary: "Set cookies", tags: ["cookies"] } },
      "/sets": {
        get: {
          summary: "Sets",
          tags: ["sets"],
          responses: {
            "200": {
              description: "ok",
              content: { "application/json": { schema: { type: "array", items: { type: "object" } } } },
            },
          },
        },
      },
    });
    expect(name("DELETE", "/riddles")).toBe("riddles delete");
    expect(name("DELETE", "/anything/{id}")).toBe("anything delete");
    // The reason says what the method does, not what an answer's schema says (a DELETE's answer decides nothing).
    expect(command("DELETE", "/anything/{id}").nameSource.action.reason).toBe(
      "DELETE /anything/{id} cannot get: a DELETE removes, so the action is its CRUD word",
    );
    expect(name("GET", "/cookies/set").split(" ").pop()).toMatch(/^(get|list)/);
    expect(command("GET", "/cookies/set").nameSource.action).toMatchObject({
      from: "method",
      reason: expect.stringContaining("a GET only reads"),
    });
    expect(name("GET", "/sets")).toBe("sets list");
  });
});

describe("a write method is named by what it does", () => {
  it("a write whose path ends in the call it makes, and whose texts open with it, is named by it, not by a read", async () => {
    const { name, command } = await design({
      "/members/{id}/regenerateApiKeys": {
        post: {
          operationId: "Members_ListRegenerateApiKeys",
          description: "Regenerate the API keys for a member.",
          tags: ["members"],
        },
      },
      // A compound noun the texts do not open with stays a read the document names.
      "/vaults/{id}/backupStatus": {
        post: { operationId: "BackupStatus_Get", description: "Get the container backup status.", tags: ["vaults"] },
      },
    });
    expect(name("POST", "/members/{id}/regenerateApiKeys")).toBe("members regenerate-api-keys");
    expect(command("POST", "/members/{id}/regenerateApiKeys").nameSource.action.reason).toMatch(
      /ends in the call it makes \("regenerate"\): it does that, it does not list/,
    );
    expect(name("POST", "/vaults/{id}/backupStatus")).toMatch(/^vaults .*get/);
  });

  it("a write whose path ends in the verb its summary opens with is named by it, a CRUD word it restates or not", async () => {
    const { name, command } = await design({
      "/projects/{id}/builds/{build_id}/erase": {
        post: {
          operationId: "postV3ProjectsIdBuildsBuildIdErase",
          summary: "Erase build (remove artifacts)",
          tags: ["projects"],
        },
      },
      "/ships/{symbol}/refuel": { post: { summary: "Refuel the ship", tags: ["fleet"] } },
      // A title that opens with a noun WordNet also lists as a verb names a thing, not the action.
      "/phone-playback": { post: { summary: "Phone playback", tags: ["telephony"] } },
      // The verb before the item's id, as a description says it.
      "/statuses/destroy/{id}": { post: { description: "Destroys the status specified.", tags: ["statuses"] } },
    });
    // Its own word, not the CRUD word "Erase" restates (`delete-builds-erase`).
    expect(name("POST", "/projects/{id}/builds/{build_id}/erase")).toBe("projects erase-builds");
    expect(command("POST", "/projects/{id}/builds/{build_id}/erase").nameSource.action.from).toBe("path");
    expect(name("POST", "/ships/{symbol}/refuel")).toBe("fleet refuel");
    expect(name("POST", "/phone-playback").split(" ").pop()).not.toBe("phone-playback");
    expect(name("POST", "/statuses/destroy/{id}")).toBe("statuses destroy");
  });

  it("a POST its document names no read takes the verb its texts state, and keeps a read only where they state one", async () => {
    const { name, command } = await design({
      "/diagnosis": {
        post: { operationId: "computeDiagnosis", summary: "Query diagnostic engine", tags: ["diagnosis"] },
      },
      "/oauth/access_token": { post: { summary: "Obtain an access token", tags: ["oauth"] } },
      "/payment-methods/available": {
        post: { summary: "Get a list of available payment methods", tags: ["payment-methods"] },
      },
      // Named a read by its operationId: the read stays.
      "/findings/search": { post: { operationId: "ListFindings", summary: "Obtain the findings", tags: ["findings"] } },
    });
    expect(name("POST", "/diagnosis")).toBe("diagnosis query");
    expect(command("POST", "/diagnosis").nameSource.action.reason).toMatch(/its texts say "query": it does that/);
    expect(name("POST", "/oauth/access_token")).toBe("oauth obtain-access-token");
    expect(name("POST", "/payment-methods/available").split(" ").pop()).toMatch(/^(get|list)/);
    expect(name("POST", "/findings/search").split(" ").pop()).toMatch(/^list/);
  });
});

describe("a route the document states twice", () => {
  it("under other parameter names and in the same words is one command; in other words, two", async () => {
    const offer = { summary: "Make an offer to the other participant in the conversation", tags: ["conversations"] };
    const { plan } = await design({
      "/conversations/{conversation_id}/offer": { post: offer },
      "/conversations/{id}/offer": { post: offer },
      "/v1/{parent}/notes": { get: { summary: "Lists notes for the specified project.", tags: ["projects"] } },
      "/v1/{name}/notes": { get: { summary: "Lists notes attached to the specified occurrence.", tags: ["projects"] } },
    });
    const paths = plan.commands.map((c) => `${c.operation.method.toLowerCase()} ${c.operation.path}`);
    expect(paths).toContain("post /conversations/{conversation_id}/offer");
    expect(paths).not.toContain("post /conversations/{id}/offer");
    expect(plan.commands.map((c) => c.name).filter((n) => /-2$/.test(n))).toEqual([]);
    expect(paths).toEqual(expect.arrayContaining(["get /v1/{parent}/notes", "get /v1/{name}/notes"]));
    expect(plan.naming.filter((n) => n.kind === "ignored").map((n) => n.message)).toEqual([
      expect.stringMatching(/POST \/conversations\/\{id\}\/offer is POST \/conversations\/\{conversation_id\}\/offer/),
    ]);
  });
});

describe("one operation in several versions of the API", () => {
  it("the newest the document does not deprecate keeps the name; each other says its version, not words of its notes", async () => {
    const { name } = await design({
      "/v3/payees": {
        get: { summary: "List Payees", operationId: "listPayeesV3", description: "Use v4 instead", deprecated: true },
      },
      "/v4/payees": { get: { summary: "List Payees", operationId: "listPayeesV4" } },
      "/v1/cities": { get: { summary: "Get cities", operationId: "getV1Cities" } },
      "/v2/cities": { get: { summary: "Get cities", operationId: "getV2Cities" } },
      "/v1/orders": { get: { summary: "List orders" } },
      "/v2/orders": { get: { summary: "List orders", deprecated: true } },
      "/v2beta1/orders": { get: { summary: "List orders" } },
      "/v3/payouts/{payoutId}": {
        get: { summary: "V3 Get Payments for Payout", description: "Deprecated (use /v4/payouts/<id> instead)" },
      },
      "/v2/invites": { post: { description: "Use /v3/invites instead. Sends an invitation." } },
    });
    expect(name("GET", "/v4/payees")).toBe("payees list");
    // Not `list-use` ("Use v4 instead"), nor `list-getv1` (`getV1Cities`).
    expect(name("GET", "/v3/payees")).toBe("payees list-v3");
    expect(name("GET", "/v2/cities")).toBe("cities list");
    expect(name("GET", "/v1/cities")).toBe("cities list-v1");
    // A deprecated newer version, and a newer beta, leave the name to the current stable one.
    expect(name("GET", "/v1/orders")).toBe("orders list");
    expect(name("GET", "/v2/orders")).toBe("orders list-v2");
    expect(name("GET", "/v2beta1/orders")).toBe("orders list-v2beta1");
    // A version before the summary's verb, and a deprecation note, name no action ("use").
    expect(name("GET", "/v3/payouts/{payoutId}")).toBe("payouts get");
    expect(name("POST", "/v2/invites")).not.toMatch(/\buse\b/);
  });
});

describe("a path stated again with a trailing slash", () => {
  it("is one command where its parameters and body are the same; with other parameters, two", async () => {
    const { plan, name } = await design({
      "/api/person/age": { get: { operationId: "age_1", tags: ["person"] } },
      "/api/person/age/": { get: { operationId: "age", tags: ["person"] } },
      "/api/address": { post: { operationId: "generateAddress", tags: ["address"] } },
      "/api/address/": {
        post: {
          operationId: "generateAddress_1",
          tags: ["address"],
          requestBody: { content: { "application/json": { schema: { type: "object" } } } },
        },
      },
    });
    const paths = plan.commands.map((c) => `${c.operation.method.toLowerCase()} ${c.operation.path}`);
    expect(paths).toContain("get /api/person/age");
    expect(paths).not.toContain("get /api/person/age/");
    expect(name("GET", "/api/person/age")).not.toMatch(/-\d+$/);
    // A body makes it another call: both stay.
    expect(paths).toEqual(expect.arrayContaining(["post /api/address", "post /api/address/"]));
    expect(plan.naming.filter((n) => n.kind === "ignored").map((n) => n.message)).toEqual([
      "GET /api/person/age/ is GET /api/person/age with a trailing slash, the same parameters and body: one command",
    ]);
  });
});

describe("an operationId's words", () => {
  it("reads an acronym's plural as one word (IPs, URLs, HITs), not a stray letter and a fragment", async () => {
    const { name } = await design({
      "/instances/{id}/ips": { get: { operationId: "getLinodeIPs", summary: "Networking Information List" } },
      "/#X-Amz-Target=MTurk.ListHITs": { post: { operationId: "ListHITs" } },
    });
    expect(name("GET", "/instances/{id}/ips")).not.toMatch(/\bps\b|-ps\b/);
    expect(name("POST", "/#X-Amz-Target=MTurk.ListHITs")).toBe("hits list");
  });

  it("reads a piece of one or two letters and a capital before a new word as one word (IoTSpaces, miRSeq)", async () => {
    const { name } = await design({
      "/samples/miRSeq": { get: { operationId: "miRSeq", summary: "Retrieve miRSeq data.", tags: ["samples"] } },
      "/providers/IoTSpaces/graphs": { get: { summary: "List the graphs.", tags: ["graphs"] } },
    });
    expect(name("GET", "/samples/miRSeq")).toMatch(/mir-seq/);
    expect(name("GET", "/providers/IoTSpaces/graphs")).not.toMatch(/\bio-t\b|-t-/);
  });
});

describe("a POST only its description says reads", () => {
  it("is named by the verb its own call opens with, else is a request: never a plain read", async () => {
    const { name, command } = await design({
      "/auth/login": { post: { description: "Returns a session token.", tags: ["auth"] } },
      "/phone/number/validate": {
        post: { operationId: "PhoneNumberValidate", description: "Retrieves information about a phone number." },
      },
      "/messages/analyse/message-length": {
        post: { operationId: "analyse-message-length", description: "Returns the number of characters." },
      },
      "/ideal-transactions": {
        post: { operationId: "CREATE_IdealTransaction_for_User", description: "View for requesting transactions." },
      },
      // The call's first word is also a noun, and its texts never open with it: the object, no action.
      "/accounts/{account}/order_impact": { post: { description: "Get the margin impact of an order." } },
      "/DateTimeInfo": { post: { operationId: "DateTimeInfo", summary: "Get date and time information" } },
      // The resource's own name: `echo echo` would say it twice, and its description alone says it reads.
      "/echo": { post: { description: "Returns what was sent.", tags: ["echo"] } },
      // An RPC call named by a thing, that only its description says reads (Mandrill's).
      "/messages/info.json": { post: { description: "Get the information for a single recently sent message." } },
      "/senders/time-series.json": { post: { description: "Return the recent history for a sender." } },
      // A request the texts state beside a posted read: told apart by no read word (`request-get`).
      "/jobs/request": { post: { summary: "Request a job", tags: ["jobs"] } },
      "/jobs/{id}": { post: { description: "Get the job.", tags: ["jobs"] } },
      // A path's "request" is the object, not the verb said twice.
      "/users/{id}/access-request/info.json": {
        post: { description: "Get the access request info.", tags: ["users"] },
      },
      // A date after the operationId's action is no service prefix: `GetRealtimeLogConfig` says it reads.
      "/2020-05-31/get-realtime-log-config/": {
        post: { operationId: "GetRealtimeLogConfig2020_05_31", description: "Gets a real-time log configuration." },
      },
    });
    expect(name("POST", "/auth/login").split(" ").pop()).toBe("login");
    expect(command("POST", "/auth/login").nameSource.action.reason).toMatch(/is the call "login" by its own name/);
    expect(name("POST", "/phone/number/validate")).toBe("phone validate-number");
    expect(name("POST", "/messages/analyse/message-length")).toBe("messages analyse-length");
    expect(name("POST", "/ideal-transactions")).toBe("ideal-transactions create");
    expect(name("POST", "/accounts/{account}/order_impact").split(" ").pop()).toBe("request-order-impact");
    // Its summary names the call a read: the document's own name for it.
    expect(name("POST", "/DateTimeInfo").split(" ").pop()).toMatch(/^get/);
    expect(name("POST", "/echo")).toBe("echo request");
    expect(name("POST", "/messages/info.json")).toBe("messages request-info");
    expect(name("POST", "/senders/time-series.json")).toBe("senders request-time-series");
    expect(command("POST", "/messages/info.json").nameSource.action.reason).toMatch(
      /only its description says "get": a request made by posting/,
    );
    expect(name("POST", "/2020-05-31/get-realtime-log-config/").split(" ").pop()).toBe("get");
    expect(name("POST", "/users/{id}/access-request/info.json")).toMatch(/access-request/);
    expect(name("POST", "/jobs/request")).toBe("jobs request");
    expect(name("POST", "/jobs/{id}")).not.toMatch(/-(get|list)\b/);
  });
});

describe("an AWS protocol's operations, named in the URL's fragment", () => {
  it("are named by what their method acts on and does, one command for the query protocol's GET and POST forms", async () => {
    const { name, plan } = await design({
      "/#X-Amz-Target=DynamoDB_20120810.CreateTable": { post: { operationId: "CreateTable" } },
      "/#X-Amz-Target=DynamoDB_20120810.ListTables": { post: { operationId: "ListTables" } },
      "/#X-Amz-Target=DynamoDB_20120810.BatchGetItem": { post: { operationId: "BatchGetItem" } },
      "/#X-Amz-Target=AWSCognitoIdentityProviderService.AdminGetUser": { post: { operationId: "AdminGetUser" } },
      "/#Action=AssumeRole": {
        get: { operationId: "GET_AssumeRole", description: "Returns temporary security credentials." },
        post: { operationId: "POST_AssumeRole", description: "Returns temporary security credentials." },
      },
      "/#Action=GetCallerIdentity": {
        get: { operationId: "GET_GetCallerIdentity" },
        post: { operationId: "POST_GetCallerIdentity" },
      },
    });
    expect(name("POST", "/#X-Amz-Target=DynamoDB_20120810.CreateTable")).toBe("tables create");
    expect(name("POST", "/#X-Amz-Target=DynamoDB_20120810.ListTables")).toBe("tables list");
    expect(name("POST", "/#X-Amz-Target=DynamoDB_20120810.BatchGetItem")).toBe("items batch-get");
    expect(name("POST", "/#X-Amz-Target=AWSCognitoIdentityProviderService.AdminGetUser")).toBe("users get-admin");
    // A verb only WordNet knows is the action; the GET form is the same call as the POST's, and no command.
    expect(name("POST", "/#Action=AssumeRole")).toBe("roles assume");
    expect(name("POST", "/#Action=GetCallerIdentity")).toBe("caller-identities get");
    expect(
      plan.commands.filter((c) => c.operation.path.startsWith("/#Action=")).map((c) => c.operation.method),
    ).toEqual(["POST", "POST"]);
    expect(plan.naming.filter((n) => n.kind === "ignored").map((n) => n.message)).toEqual([
      expect.stringContaining("GET form of POST /#Action=AssumeRole"),
      expect.stringContaining("GET form of POST /#Action=GetCallerIdentity"),
    ]);
  });
});

describe("two AWS reads the designer's verb makes one", () => {
  it("are named by their own verbs, as the service calls them, not by weak words of their descriptions", async () => {
    // Both answer a page of stacks: both are lists by the designer's verb.
    const page = {
      type: "object",
      properties: { Stacks: { type: "array", items: { type: "object" } }, NextToken: { type: "string" } },
    };
    const answer = { "200": { description: "ok", content: { "application/json": { schema: page } } } };
    const { name, command } = await design({
      "/#Action=DescribeStacks": {
        post: {
          operationId: "POST_DescribeStacks",
          description: "Returns the description for the stacks.",
          responses: answer,
        },
      },
      "/#Action=ListStacks": {
        post: {
          operationId: "POST_ListStacks",
          description: "Returns the summary information for stacks.",
          responses: answer,
        },
      },
      "/#X-Amz-Target=CertificateManager.DescribeCertificate": {
        post: { operationId: "DescribeCertificate", description: "Returns detailed metadata about a certificate." },
      },
      "/#X-Amz-Target=CertificateManager.GetCertificate": {
        post: { operationId: "GetCertificate", description: "Retrieves a certificate and its chain." },
      },
    });
    expect([name("POST", "/#Action=DescribeStacks"), name("POST", "/#Action=ListStacks")]).toEqual([
      "stacks describe",
      "stacks list",
    ]);
    expect(name("POST", "/#X-Amz-Target=CertificateManager.DescribeCertificate")).toBe("certificates describe");
    expect(name("POST", "/#X-Amz-Target=CertificateManager.GetCertificate")).toBe("certificates get");
    expect(command("POST", "/#Action=DescribeStacks").nameSource.action.reason).toMatch(/the call's own verb/);
  });
});

describe("a making under one item the path names last", () => {
  it("keeps that item a sub-resource: the command makes its group's thing, not the item", async () => {
    const { name } = await design({
      "/projects/user/{user_id}": {
        post: { summary: "Create new project for a specified user", tags: ["projects"] },
      },
      "/projects": { post: { summary: "Create a project", tags: ["projects"] } },
    });
    expect(name("POST", "/projects/user/{user_id}")).toBe("projects user create");
    expect(name("POST", "/projects")).toBe("projects create");
  });
});

describe("a document that states each operation's path again as its tag and summary (Magento)", () => {
  it("is named by the path: the tag is no group, and the summary's first path word no verb", async () => {
    const { name } = await design({
      "/V1/orders/{id}/cancel": {
        post: {
          summary: "orders/{id}/cancel",
          tags: ["orders/{id}/cancel"],
          operationId: "salesOrderManagementV1CancelPost",
        },
      },
      "/V1/orders/{id}/hold": {
        post: {
          summary: "orders/{id}/hold",
          tags: ["orders/{id}/hold"],
          operationId: "salesOrderManagementV1HoldPost",
        },
      },
      "/V1/orders": { get: { summary: "orders", tags: ["orders"], operationId: "salesOrderRepositoryV1GetListGet" } },
      "/V1/products/{sku}": {
        delete: {
          summary: "products/{sku}",
          tags: ["products/{sku}"],
          operationId: "catalogProductRepositoryV1DeleteByIdDelete",
        },
      },
      "/V1/products": {
        post: { summary: "products", tags: ["products"], operationId: "catalogProductRepositoryV1SavePost" },
      },
    });
    // Were `orders-cancel order` (the tag as a group, "order" of the summary as the verb) and `products-sku delete`.
    expect(name("POST", "/V1/orders/{id}/cancel")).toBe("orders cancel");
    expect(name("POST", "/V1/orders/{id}/hold")).toBe("orders hold");
    expect(name("DELETE", "/V1/products/{sku}")).toBe("products delete");
    expect(name("POST", "/V1/products")).toBe("products create");
  });
});

describe("paths whose words are parameters and fragments", () => {
  it("a path of parameters only is named by its last one; a fragment after a parameter is no word", async () => {
    const { name } = await design({
      "/{Bucket}/{Key}": { get: { operationId: "GetObject" }, delete: { operationId: "DeleteObject" } },
      "/{Bucket}": { put: { operationId: "CreateBucket" } },
      "/channels/{channelArn}#x-amz-chime-bearer": { get: { operationId: "DescribeChannel", tags: ["channels"] } },
      "/{id}": { get: { operationId: "getThing" } },
    });
    expect(name("GET", "/{Bucket}/{Key}")).toBe("key get");
    expect(name("DELETE", "/{Bucket}/{Key}")).toBe("key delete");
    expect(name("PUT", "/{Bucket}")).toBe("bucket create");
    expect(name("GET", "/channels/{channelArn}#x-amz-chime-bearer")).toBe("channels get");
    // An id alone names nothing.
    expect(name("GET", "/{id}").split(" ")[0]).toBe("api");
  });
});

describe("commands are told apart by words, a number only as the last resort", () => {
  it("'all' in the summary, or a collection beside its items, is -all; the item keeps the plain name", async () => {
    const { name } = await design({
      "/queues/{queueId}/phone_numbers": {
        delete: {
          summary: "Unassign all phone numbers",
          operationId: "unassignAPhoneNumCallQueue",
          tags: ["Phone Call Queues"],
        },
      },
      "/queues/{queueId}/phone_numbers/{phoneNumberId}": {
        delete: {
          summary: "Unassign a phone number",
          operationId: "unAssignPhoneNumCallQueue",
          tags: ["Phone Call Queues"],
        },
      },
      "/users/{userId}/schedulers": {
        delete: { summary: "Delete user schedulers", operationId: "userSchedulersDelete", tags: ["Users"] },
      },
      "/users/{userId}/schedulers/{schedulerId}": {
        delete: { summary: "Delete a scheduler", operationId: "userSchedulerDelete", tags: ["Users"] },
      },
    });
    expect(name("DELETE", "/queues/{queueId}/phone_numbers")).toBe("phone-call-queues phone-numbers unassign-all");
    // `unAssign…` is one word, unassign: never `unassign-un`.
    expect(name("DELETE", "/queues/{queueId}/phone_numbers/{phoneNumberId}")).toBe(
      "phone-call-queues phone-numbers unassign",
    );
    expect(name("DELETE", "/users/{userId}/schedulers")).toBe("users schedulers delete-all");
    expect(name("DELETE", "/users/{userId}/schedulers/{schedulerId}")).toBe("users schedulers delete");
  });

  it("a path word 'all' tells a delete apart (`/members/{idMember}/all`)", async () => {
    const { name, plan } = await design({
      "/organizations/{idOrg}/members/{idMember}": {
        delete: { summary: "deleteOrganizationsMembersByIdOrgByIdMember()", tags: ["organization"] },
      },
      "/organizations/{idOrg}/members/{idMember}/all": {
        delete: { summary: "deleteOrganizationsMembersAllByIdOrgByIdMember()", tags: ["organization"] },
      },
    });
    expect(name("DELETE", "/organizations/{idOrg}/members/{idMember}/all")).toBe("organization members delete-all");
    expect(plan.commands.map((c) => c.name).filter((n) => /-\d+$/.test(n))).toEqual([]);
  });

  it("a hash a generator appended to an operationId tells nothing apart (Graph's `…As.microsoft.graph.user-e6f4`)", async () => {
    const summary = "Get the item of type directoryObject as user";
    const { name } = await design({
      "/devices/{device-id}/memberOf/{directoryObject-id}/graph.user": {
        get: { operationId: "devices.memberOf.GetAsUser-e6f4", summary, tags: ["devices"] },
      },
      "/devices/{device-id}/transitiveMemberOf/{directoryObject-id}/graph.user": {
        get: { operationId: "devices.transitiveMemberOf.GetAsUser-b1dc", summary, tags: ["devices"] },
      },
    });
    const names = [
      name("GET", "/devices/{device-id}/memberOf/{directoryObject-id}/graph.user"),
      name("GET", "/devices/{device-id}/transitiveMemberOf/{directoryObject-id}/graph.user"),
    ];
    expect(new Set(names).size).toBe(2);
    for (const n of names) expect(n).not.toMatch(/e6f4|b1dc/);
  });

  it("a PUT beside a PATCH that both say update: replace and update", async () => {
    const { name, command } = await design({
      "/notes": {
        put: { operationId: "Notes_UpdateEntity", tags: ["Notes"] },
        patch: { operationId: "Notes_PatchEntity", tags: ["Notes"] },
      },
    });
    expect(name("PUT", "/notes")).toBe("notes replace");
    expect(name("PATCH", "/notes")).toBe("notes update");
    expect(command("PUT", "/notes").nameSource.action.reason).toMatch(/method's own word/);
  });

  it("a word the description says in passing comes after the summary's and the path's, and the verb is never repeated", async () => {
    const { name } = await design({
      "/tsp": { get: { summary: "Get account's TSP information", operationId: "tsp", tags: ["TSP"] } },
      "/users/{userId}/tsp/{tspId}": {
        get: {
          summary: "Get a user's TSP account",
          operationId: "userTSP",
          description: "Each user can have a maximum of two TSP accounts.",
          tags: ["TSP"],
        },
      },
      "/webhooks/": { put: { summary: "updateWebhooks()", tags: ["webhook"] } },
      "/webhooks/{idWebhook}": { put: { summary: "updateWebhooksByIdWebhook()", tags: ["webhook"] } },
      "/invoices": { get: { summary: "List billing invoices", tags: ["billing"] } },
      "/invoices/{id}": { get: { summary: "Get a billing invoice", tags: ["billing"] } },
    });
    expect(name("GET", "/users/{userId}/tsp/{tspId}")).not.toMatch(/maximum/);
    expect(name("PUT", "/webhooks/")).not.toMatch(/update-update/);
    expect(name("GET", "/invoices")).toBe("billing invoices list");
  });

  it("a version tells apart what only a version separates; a word said only in a description tells apart the rest", async () => {
    const { name, warnings } = await design({
      "/v1/clusters": {
        post: { operationId: "CreateCluster", description: "Creates a new cluster.", tags: ["clusters"] },
      },
      "/api/v2/clusters": {
        post: { operationId: "CreateClusterV2", description: "Creates a new cluster.", tags: ["clusters"] },
      },
      "/reports": {
        post: {
          summary: "Get the report by day",
          operationId: "GetReport",
          description: "Get the report by day. Totals for every store.",
          tags: ["reports"],
        },
      },
      "/stores/{storeId}/reports": {
        post: {
          summary: "Get the report by day",
          operationId: "GetReport2",
          description: "Get the report by day. Totals for one store, archived nightly.",
          tags: ["reports"],
        },
      },
    });
    expect(name("POST", "/v1/clusters")).toBe("clusters create");
    expect(name("POST", "/api/v2/clusters")).toBe("clusters create-v2");
    const reports = [name("POST", "/reports"), name("POST", "/stores/{storeId}/reports")];
    expect(new Set(reports).size).toBe(2);
    expect(reports.some((n) => /-\d+$/.test(n))).toBe(false);
    expect(warnings.join("\n")).not.toMatch(/nothing in its description differs/);
  });

  it("one whose words another says too takes the plain name; the other adds its own word", async () => {
    const { name } = await design({
      "/servers/{s}/auditing/{p}": { get: { operationId: "ServerAuditing_Get", tags: ["auditing"] } },
      "/servers/{s}/databases/{d}/auditing/{p}": { get: { operationId: "DatabaseAuditing_Get", tags: ["auditing"] } },
      "/servers/{s}/databases/{d}/extendedAuditing/{p}": {
        get: { operationId: "ExtendedDatabaseAuditing_Get", tags: ["auditing"] },
      },
      "/servers/{s}/extendedAuditing/{p}": { get: { operationId: "ExtendedServerAuditing_Get", tags: ["auditing"] } },
    });
    const names = [
      "/servers/{s}/auditing/{p}",
      "/servers/{s}/databases/{d}/auditing/{p}",
      "/servers/{s}/databases/{d}/extendedAuditing/{p}",
      "/servers/{s}/extendedAuditing/{p}",
    ].map((p) => name("GET", p));
    expect(new Set(names).size).toBe(4);
    expect(names.filter((n) => /-\d+$/.test(n))).toEqual([]);
    // Each extended one says "extended"; the two on databases say "database" and the server's do not.
    expect(names[2]).toMatch(/extended/);
    expect(names[3]).toMatch(/extended/);
    expect(names[1]).toMatch(/database/);
    expect(names[3]).not.toMatch(/database/);
  });

  it("what only a path parameter separates is told apart by whose it is; a PUT on an item beside a POST updates", async () => {
    const { name } = await design({
      "/payment": { get: { summary: "View your payment info", operationId: "getPaymentInfo", tags: ["payment"] } },
      "/{userId}/payment": {
        get: { summary: "View user's payment info", operationId: "getUserPaymentInfo", tags: ["payment"] },
      },
      "/logs": { get: { summary: "Get connection logs", tags: ["logs"] } },
      "/connections/{id_connection}/logs": { get: { summary: "Get connection logs", tags: ["logs"] } },
      "/V1/categories": {
        post: {
          summary: "categories",
          operationId: "categoryV1SavePost",
          description: "Create category service",
          tags: ["categories"],
        },
      },
      "/V1/categories/{id}": {
        put: {
          summary: "categories/{id}",
          operationId: "categoryV1SavePut",
          description: "Create category service",
          tags: ["categories"],
        },
      },
    });
    const names = [
      name("GET", "/payment"),
      name("GET", "/{userId}/payment"),
      name("GET", "/logs"),
      name("GET", "/connections/{id_connection}/logs"),
    ];
    expect(names.filter((n) => /-\d+$/.test(n))).toEqual([]);
    expect(new Set(names).size).toBe(4);
    expect(names[3]).toMatch(/connection/);
    expect(name("PUT", "/V1/categories/{id}")).toBe("categories update");
    // A format is a word; where no one word is its own, two are (`request-ipv4-txt`).
    const ip = await design({
      "/ip": { get: { summary: "request the time" } },
      "/ip.txt": { get: { summary: "request the time" } },
      "/ip/{ipv4}": { get: { summary: "request the time" } },
      "/ip/{ipv4}.txt": { get: { summary: "request the time" } },
    });
    expect(["/ip", "/ip.txt", "/ip/{ipv4}", "/ip/{ipv4}.txt"].map((p) => ip.name("GET", p))).toEqual([
      "ip request",
      "ip request-txt",
      "ip request-ipv4",
      "ip request-ipv4-txt",
    ]);
  });

  it("a PATCH beside a PUT that both say create is update; a read of a collection beside its items is list and get", async () => {
    const { name } = await design({
      "/domains/{name}": {
        put: { summary: "Creates a domain", operationId: "Domains_CreateOrUpdate", tags: ["domains"] },
        patch: { summary: "Creates a domain", operationId: "Domains_Update", tags: ["domains"] },
      },
      "/templates/": { get: { summary: "Get a list of form templates", tags: ["templates"] } },
      "/templates/{templateId}": { get: { summary: "Get a form template", tags: ["templates"] } },
      "/categories": { get: { summary: "List of categories", tags: ["categories"] } },
      "/categories/{id}": { get: { summary: "Category by ID", tags: ["categories"] } },
    });
    expect(name("PUT", "/domains/{name}")).toBe("domains create");
    expect(name("PATCH", "/domains/{name}")).toBe("domains update");
    expect(name("GET", "/templates/")).toBe("templates list");
    expect(name("GET", "/templates/{templateId}")).toBe("templates get");
    expect(name("GET", "/categories")).toBe("categories list");
    expect(name("GET", "/categories/{id}")).toBe("categories get");
  });

  it("only operations whose texts are the same are numbered, and the number is a warning", async () => {
    const { name, warnings } = await design({
      "/alpha/thing": { get: { summary: "Get thing", tags: ["things"] } },
      "/beta/thing": { get: { summary: "Get thing", tags: ["things"] } },
    });
    const names = [name("GET", "/alpha/thing"), name("GET", "/beta/thing")];
    expect(names.some((n) => /-\d+$/.test(n))).toBe(false);
    const twins = await design({
      "/thing": { get: { summary: "Get thing", tags: ["things"] } },
      "/Thing": { get: { summary: "Get thing", tags: ["things"] } },
    });
    expect(twins.name("GET", "/Thing")).toMatch(/-2$/);
    expect(twins.warnings.join("\n")).toMatch(/nothing in its description differs/);
    expect(warnings.every((w) => !/-2"/.test(w))).toBe(true);
  });

  it("tells operations apart by a short or common word of their texts before numbering them", async () => {
    // Microsoft Graph's `/me/…` beside `/…`, and its Excel functions AND and OR: no telling word, but a word all the same.
    const { name } = await design({
      "/contacts/$count": { get: { summary: "Get the number of the resource", tags: ["contacts"] } },
      "/me/contacts/$count": { get: { summary: "Get the number of the resource", tags: ["contacts"] } },
      "/functions/microsoft.graph.and": { post: { summary: "Invoke action and", tags: ["functions"] } },
      "/functions/microsoft.graph.or": { post: { summary: "Invoke action or", tags: ["functions"] } },
      "/functions/microsoft.graph.not": { post: { summary: "Invoke action not", tags: ["functions"] } },
    });
    const names = [
      name("GET", "/contacts/$count"),
      name("GET", "/me/contacts/$count"),
      name("POST", "/functions/microsoft.graph.and"),
      name("POST", "/functions/microsoft.graph.or"),
      name("POST", "/functions/microsoft.graph.not"),
    ];
    expect(names.filter((n) => /-\d+$/.test(n))).toEqual([]);
    expect(names[1]).toMatch(/-me$/);
    expect(names[0]).not.toMatch(/-me$/);
    // The first keeps the plain name; the others say their function.
    expect(names.slice(3).map((n) => n.split(/[ -]/).pop())).toEqual(["or", "not"]);
    // Prose's passing words ("the", "of") name nothing.
    expect(names.every((n) => !/-(the|of)\b/.test(n))).toBe(true);
    // A version a segment ends in, and a letter a path says alone.
    const more = await design({
      "/alerts/$count": { get: { summary: "Get the number of the resource", tags: ["alerts"] } },
      "/alerts_v2/$count": { get: { summary: "Get the number of the resource", tags: ["alerts"] } },
      "/functions/microsoft.graph.f_Dist": { post: { summary: "Invoke action f_Dist", tags: ["functions"] } },
      "/functions/microsoft.graph.t_Dist": { post: { summary: "Invoke action t_Dist", tags: ["functions"] } },
    });
    expect(more.name("GET", "/alerts_v2/$count")).toMatch(/-v2$/);
    expect(more.name("POST", "/functions/microsoft.graph.t_Dist")).toMatch(/-t$/);
  });
});

describe("path shapes", () => {
  it("a singular sub-resource is get; a trailing {field} gets a field, a trailing {filter} is a filtered list", async () => {
    const { name } = await design({
      "/cards/{idCard}/board": { get: { summary: "getCardsBoardByIdCard()", tags: ["card"] } },
      "/cards/{idCard}/board/{field}": { get: { summary: "getCardsBoardByIdCardByField()", tags: ["card"] } },
      "/cards/{idCard}/list": { get: { summary: "getCardsListByIdCard()", tags: ["card"] } },
      "/cards/{idCard}/list/{field}": { get: { summary: "getCardsListByIdCardByField()", tags: ["card"] } },
      "/boards/{idBoard}/cards": { get: { summary: "getBoardsCardsByIdBoard()", tags: ["board"] } },
      "/boards/{idBoard}/cards/{filter}": { get: { summary: "getBoardsCardsByIdBoardByFilter()", tags: ["board"] } },
    });
    expect(name("GET", "/cards/{idCard}/board")).toBe("card board get");
    expect(name("GET", "/cards/{idCard}/board/{field}")).toBe("card board get-field");
    expect(name("GET", "/cards/{idCard}/list")).toBe("card list get");
    expect(name("GET", "/boards/{idBoard}/cards")).toBe("board cards list");
    expect(name("GET", "/boards/{idBoard}/cards/{filter}")).toBe("board cards list-filtered");
  });

  it("a format after a parameter is no word (`/posts/{id}.json`); a letter or the action's verb is no sub-resource", async () => {
    // Discourse, Twilio's 2010 API, Jumpseller and SalesLoft end every path in `.json`: `posts id delete`, `call sid
    // get` named the parameter.
    const { name } = await design({
      "/posts.json": { get: { operationId: "listPosts", tags: ["Posts"] } },
      "/posts/{id}.json": {
        get: { operationId: "getPost", tags: ["Posts"] },
        delete: { operationId: "deletePost", tags: ["Posts"] },
      },
      "/t/{id}.json": { get: { operationId: "getTopic", tags: ["Topics"] } },
      "/admin/users/list/{flag}.json": {
        get: {
          operationId: "adminListUsers",
          tags: ["Users"],
          responses: { "200": { description: "ok", content: { "application/json": { schema: { type: "array" } } } } },
        },
      },
      "/Accounts/{AccountSid}/Calls/{Sid}.json": { get: { summary: "Fetch a call", tags: ["Call"] } },
    });
    expect(name("GET", "/posts.json")).toBe("posts list");
    expect(name("GET", "/posts/{id}.json")).toBe("posts get");
    expect(name("DELETE", "/posts/{id}.json")).toBe("posts delete");
    expect(name("GET", "/t/{id}.json")).toBe("topics get");
    expect(name("GET", "/admin/users/list/{flag}.json")).toBe("users list");
    expect(name("GET", "/Accounts/{AccountSid}/Calls/{Sid}.json")).toBe("call get");
  });

  it("a custom method after the last segment is the action (Google's `/v1/{name}:cancel`); `:id` is a parameter", async () => {
    // Google's hundreds of descriptions name each custom method this way: `projects cancel-name-cancel`,
    // `projects get-resource-get-iam-policy` said the parameter and the verb twice.
    const tags = ["projects"];
    const { name } = await design({
      "/v1/{name}:cancel": { post: { operationId: "cloudbuild.projects.locations.operations.cancel", tags } },
      "/v1/{resource}:getIamPolicy": { get: { operationId: "pubsub.projects.topics.getIamPolicy", tags } },
      "/v1/{parent}/studies": { get: { operationId: "aiplatform.projects.locations.studies.list", tags } },
      "/v1/{parent}/studies:lookup": { post: { operationId: "aiplatform.projects.locations.studies.lookup", tags } },
      "/logs/{appId}/drains": { get: { summary: "List drains", tags: ["logs"] } },
      "/logs/{appId}/drains/:idOrUrl": { delete: { summary: "Delete a drain", tags: ["logs"] } },
    });
    expect(name("POST", "/v1/{name}:cancel")).toBe("projects cancel");
    expect(name("GET", "/v1/{resource}:getIamPolicy")).toBe("projects get-iam-policy");
    expect(name("GET", "/v1/{parent}/studies")).toBe("projects studies list");
    expect(name("POST", "/v1/{parent}/studies:lookup")).toBe("projects studies lookup");
    expect(name("DELETE", "/logs/{appId}/drains/:idOrUrl")).toBe("logs drains delete");
  });

  it("a query written into the path is parameters, not words, though it tells operations apart", async () => {
    // ClickSend's `/lists/{list_id}/export?filename={filename}` was `export-filename-filename`; Weatherbit states one
    // path per way of saying where.
    const { name } = await design({
      "/lists/{list_id}/export?filename={filename}": {
        get: { summary: "Export contact list", tags: ["Contact Lists"] },
      },
      "/current?lat={lat}&lon={lon}": { get: { summary: "Current weather", tags: ["Current"] } },
      "/current?city={city}": { get: { summary: "Current weather", tags: ["Current"] } },
      "/rest?method=flickr.photos.getInfo": {
        get: {
          summary: "flickr.photos.getInfo",
          tags: ["photos"],
          responses: { "200": { description: "ok", content: { "application/json": { schema: { type: "object" } } } } },
        },
      },
    });
    expect(name("GET", "/lists/{list_id}/export?filename={filename}")).toBe("contact-lists export");
    expect(name("GET", "/current?lat={lat}&lon={lon}")).toMatch(/^current \S*-lat\b/);
    expect(name("GET", "/current?city={city}")).toMatch(/^current \S*-city\b/);
    expect(name("GET", "/rest?method=flickr.photos.getInfo")).toMatch(/^photos get-info/);
  });

  it("a parameter that picks rather than names one item leaves one or many to the answer", async () => {
    const page = {
      "200": {
        description: "ok",
        content: {
          "application/json": {
            schema: { type: "object", properties: { results: { type: "array", items: { type: "object" } } } },
          },
        },
      },
    };
    const { name } = await design({
      "/reports/{entity_type}": {
        get: { summary: "Reports of a kind of committee", tags: ["reports"], responses: page },
      },
      "/mostviewed/{section}/{time-period}": {
        get: { summary: "Most viewed articles", tags: ["mostviewed"], responses: page },
      },
      "/messages/{logId}/{id}": { get: { summary: "Fetch a message", tags: ["messages"], responses: page } },
      "/Contacts/{ContactNumber}": { get: { summary: "Retrieve a contact", tags: ["Contacts"], responses: page } },
    });
    expect(name("GET", "/reports/{entity_type}")).toMatch(/^reports list/);
    expect(name("GET", "/mostviewed/{section}/{time-period}")).toMatch(/^mostviewed list/);
    expect(name("GET", "/messages/{logId}/{id}")).toBe("messages get");
    expect(name("GET", "/Contacts/{ContactNumber}")).toBe("contacts get");
  });

  it("'options' is a thing, not the OPTIONS method: a product's options are a group of their own", async () => {
    const { name } = await design({
      "/products/{id}": { get: { summary: "Retrieve a single Product", tags: ["Products"] } },
      "/products/{id}/options": {
        get: { summary: "Retrieve all Product Options", tags: ["Product Options"] },
        post: { summary: "Create a new Product Option", tags: ["Product Options"] },
      },
      "/products/{id}/options/{option_id}": {
        delete: { summary: "Delete a Product Option", tags: ["Product Options"] },
      },
      "/v2/databases": { get: { summary: "List all database clusters", tags: ["Databases"] } },
      "/v2/databases/options": { get: { summary: "List database options", tags: ["Databases"] } },
    });
    expect(name("GET", "/products/{id}")).toBe("products get");
    expect(name("GET", "/products/{id}/options")).toBe("product-options list");
    expect(name("POST", "/products/{id}/options")).toBe("product-options create");
    expect(name("DELETE", "/products/{id}/options/{option_id}")).toBe("product-options delete");
    expect(name("GET", "/v2/databases")).toBe("databases list");
    expect(name("GET", "/v2/databases/options")).toBe("databases list-options");
  });

  it("a name spelled in camel case is one word: `OpenIDConnectProvider` → openid-connect-providers", async () => {
    // IAM's `CreateOpenIDConnectProvider` was `open-connect-providers create-id`: "OpenID" split into open and id.
    const { name } = await design({
      "/#Action=CreateOpenIDConnectProvider": { post: { operationId: "CreateOpenIDConnectProvider" } },
      "/#Action=ListOpenIDConnectProviders": { post: { operationId: "ListOpenIDConnectProviders" } },
      "/repos/{owner}/{repo}/github-apps": { get: { operationId: "listGitHubApps", tags: ["GitHubApps"] } },
    });
    expect(name("POST", "/#Action=CreateOpenIDConnectProvider")).toBe("openid-connect-providers create");
    expect(name("POST", "/#Action=ListOpenIDConnectProviders")).toBe("openid-connect-providers list");
    expect(name("GET", "/repos/{owner}/{repo}/github-apps")).toMatch(/^github-apps list/);
  });

  it("wire names are words: `idLabels` → labels, `VPCs` → vpcs", async () => {
    const { name } = await design({
      "/cards/{idCard}/idLabels": { post: { summary: "addCardsIdLabelsByIdCard()", tags: ["card"] } },
      "/cards/{idCard}/labels": { post: { summary: "addCardsLabelsByIdCard()", tags: ["card"] } },
      "/cards/{idCard}/idBoard": { put: { summary: "updateCardsIdBoardByIdCard()", tags: ["card"] } },
      "/vpcs": { get: { summary: "List all VPCs", tags: ["VPCs"] } },
    });
    expect(name("POST", "/cards/{idCard}/labels")).toBe("card labels add");
    expect(name("POST", "/cards/{idCard}/idLabels")).toBe("card labels add-id");
    expect(name("PUT", "/cards/{idCard}/idBoard")).toMatch(/^card (board update|update-board)$/);
    expect(name("GET", "/vpcs")).toMatch(/^vpcs list/);
  });
});

describe("groups", () => {
  it("one tag, one group, however long its names; the description is the tag's as plain text, never a bare URL", async () => {
    const long = "Configuration Item Billing Product Associations Child";
    const { plan } = await design(
      {
        "/ci/{parentId}/billing/product/associations": {
          get: { summary: "List the billing product associations of a configuration item", tags: [long] },
          post: { summary: "Create a billing product association", tags: [long] },
        },
        "/ci/{parentId}/billing/product/associations/{id}/entity/information/fields": {
          get: { summary: "Get entity information fields", tags: [long] },
        },
        "/cards": { get: { summary: "List cards", tags: ["card"] } },
      },
      [
        {
          name: long,
          description: "**Associations** of a [configuration item](https://example.com/ci).\n\nMore text.",
        },
        { name: "card", description: "https://trello.com/docs/api/card/index.html" },
      ],
    );
    expect(new Set(plan.commands.filter((c) => c.nameSource.resource.text === long).map((c) => c.path[0])).size).toBe(
      1,
    );
    expect(splitTags(plan.commands.map((c) => ({ name: c.name, tags: [c.nameSource.resource.text!] })))).toEqual([]);
    const groups = Object.fromEntries(plan.groups.map((g) => [g.name, g.description]));
    expect(groups.card).not.toMatch(/https?:/);
    expect(groups.card).toMatch(/^card: /);
    expect(Object.values(groups)).toContain("Associations of a configuration item.");
  });
});

describe("Skills", () => {
  it("cut only at sentence ends: an abbreviation or a bracket is no end", () => {
    expect(firstSentence("Use when the user names a board (e.g. Outcome: a sprint board). Then more.")).toBe(
      "Use when the user names a board (e.g. Outcome: a sprint board).",
    );
    expect(firstSentence("Pick one, i.e. the newest. Then more.")).toBe("Pick one, i.e. the newest.");
  });

  it("link the commands the task needs: what it acts on, nothing its words do not say", async () => {
    const { plan, name } = await design({
      "/meetings/{meetingId}": {
        delete: { summary: "Delete a meeting", tags: ["Meetings"] },
        get: { summary: "Get a meeting", tags: ["Meetings"] },
      },
      "/meetings/{meetingId}/polls/{pollId}": { delete: { summary: "Delete a meeting poll", tags: ["Meetings"] } },
      "/meetings/{meetingId}/registrants/{registrantId}": {
        delete: { summary: "Delete a meeting registrant", tags: ["Meetings"] },
      },
      "/users/{userId}/schedulers": { delete: { summary: "Delete user schedulers", tags: ["Users"] } },
      "/boards/{idBoard}/cards": { get: { summary: "getBoardsCardsByIdBoard()", tags: ["board"] } },
      "/cards/{idCard}/board": { get: { summary: "getCardsBoardByIdCard()", tags: ["card"] } },
    });
    const brief =
      "# P\n\nA product.\n\n## Tasks and scenarios\n\n### Cancel a meeting\n\nThe user wants a scheduled meeting cancelled.\n\nExpected outcome: it is gone.\n\n### List the cards on a board\n\nUse when the user names a board (e.g. Outcome: a sprint board).\n\nExpected outcome: the cards.\n";
    const { plan: skills } = planSkills(parseBrief(brief), plan.commands, "P");
    const [cancel, cards] = skills.skills;
    expect(cancel!.commands[0]).toBe("meetings delete");
    expect(cancel!.commands).not.toContain("meetings polls delete");
    expect(cancel!.commands).not.toContain("meetings registrants delete");
    expect(cancel!.commands.some((c) => c.startsWith("users"))).toBe(false);
    expect(cards!.commands[0]).toBe(name("GET", "/boards/{idBoard}/cards"));
    expect(cards!.commands).not.toContain(name("GET", "/cards/{idCard}/board"));
    expect(cards!.description).toContain("(e.g. Outcome: a sprint board).");
    expect(cards!.description).not.toMatch(/use when use when/i);
  });
});

describe("the inspection and the checker judge the same shapes from outside", () => {
  it("a name that contradicts its method, a number, a word from nowhere", () => {
    const found = misleadingNames(
      [
        { name: "loans get", method: "DELETE", description: "Return a lent copy" },
        { name: "cookies delete", method: "GET", description: "Delete cookies" },
        { name: "users schedulers delete-2", method: "DELETE", description: "Delete a scheduler" },
        { name: "tsp get-maximum", method: "GET", description: "Get a user's TSP account" },
        { name: "rooms find-availability", method: "GET", description: "Find rooms free for a time slot" },
        { name: "loans return", method: "DELETE", description: "Return a lent copy" },
        // The verb the method gives a POST only its description says reads.
        { name: "messages request-info", method: "POST", description: "Get the information for a sent message" },
      ],
      new Map([
        ["rooms find-availability", "/rooms/availability findAvailableRooms"],
        ["messages request-info", "/messages/info.json"],
      ]),
    );
    expect(found.map((f) => `${f.command}: ${f.problem}`)).toEqual([
      "loans get: contradicts its method",
      "cookies delete: contradicts its method",
      "users schedulers delete-2: numeric suffix",
      "tsp get-maximum: word from no operation text",
    ]);
  });

  it("a command's texts are read as one: words join across the gap between two of them, and shared texts say the same for each command", () => {
    // "log" ends the description and "out" begins the operation's text: the two join to "logout", as in one sentence.
    // The same flag text on many commands is read once, and says its words for each of them.
    const flag = { name: "--session", description: "The key it rotates" };
    const found = misleadingNames(
      [
        { name: "users logout", method: "POST", description: "End the session: log" },
        { name: "users logoff", method: "POST", description: "End the session: log" },
        { name: "keys rotate", method: "POST", description: "Renew a key", parameters: [flag] },
        { name: "tokens rotate", method: "POST", description: "Renew a token", parameters: [flag] },
        { name: "tokens rotation-now", method: "POST", description: "Renew a token", parameters: [] },
      ],
      new Map([
        ["users logout", "out /sessions"],
        ["users logoff", "out /sessions"],
      ]),
    );
    expect(found.map((f) => `${f.command}: ${f.detail}`)).toEqual([
      'users logoff: "logoff" in no text of the command',
      'tokens rotation-now: "rotation", "now" in no text of the command',
    ]);
  });

  it("a word from the description's second sentence is the command's own, as the designer read it", () => {
    // ShipEngine's "List carrier options" says "available" only after its first sentence, which help keeps as details.
    const command = {
      name: "carriers list-available-options",
      method: "GET",
      description: "List carrier options",
      details: "List carrier options. Get a list of the options available for the carrier.",
    };
    expect(misleadingNames([command])).toEqual([]);
    expect(misleadingNames([{ ...command, details: undefined }]).map((f) => f.detail)).toEqual([
      '"available" in no text of the command',
    ]);
  });

  it("reads an identifier's words as the designer splits them (IoTSpaces, TSSites, miRSeq)", () => {
    const found = misleadingNames(
      [
        { name: "proxy list-microsoft-iot-spaces-operations", method: "GET", description: "Lists operations." },
        { name: "metadata list-ts-sites", method: "GET", description: "Obtain identities of tissue source sites." },
        { name: "samples list-mir-seq", method: "GET", description: "Retrieve miRSeq data." },
        { name: "samples list-mir-stuff", method: "GET", description: "Retrieve miRSeq data." },
      ],
      new Map([
        ["proxy list-microsoft-iot-spaces-operations", "GET /providers/Microsoft.IoTSpaces/operations"],
        ["metadata list-ts-sites", "GET /Metadata/TSSites TSSites"],
        ["samples list-mir-seq", "GET /Samples/miRSeq miRSeq"],
        ["samples list-mir-stuff", "GET /Samples/miRSeq miRSeq"],
      ]),
    );
    expect(found.map((f) => `${f.command}: ${f.detail}`)).toEqual([
      'samples list-mir-stuff: "stuff" in no text of the command',
    ]);
  });

  it("a misleading name keeps the receipt from Agent-Native, and says which", async () => {
    const { buildReceipt } = await import("../../src/stages/inspect/receipt.js");
    const { RULES } = await import("../../src/stages/inspect/rules/index.js");
    const receipt = buildReceipt({
      facts: {
        files: { "package.json": "{}" },
        packageJson: {},
        commands: [{ name: "loans get", method: "DELETE", description: "Return a lent copy" }],
        probes: {},
        binary: "demo",
        // Only what the naming check and the rules read: a partial Facts and tools, on purpose.
      } as unknown as Facts,
      skills: [],
      candidate: null,
      tools: {} as Receipt["tools"],
      secrets: [],
    });
    expect(receipt.rules).toHaveLength(RULES.length);
    expect(receipt.naming).toEqual({
      count: 1,
      findings: [{ command: "loans get", problem: "contradicts its method", detail: 'DELETE named "get"' }],
    });
    expect(receipt.certification.level).not.toBe("Agent-Native");
  });

  it("the checker counts each rule", () => {
    const verdict = judgeOperations([
      { name: "loans get", method: "DELETE", path: "/loans/{loanId}", summary: "Return a lent copy" },
      {
        name: "users schedulers delete",
        method: "DELETE",
        path: "/users/{userId}/schedulers",
        summary: "Delete user schedulers",
      },
      {
        name: "users schedulers delete-2",
        method: "DELETE",
        path: "/users/{userId}/schedulers/{schedulerId}",
        summary: "Delete a scheduler",
      },
      {
        name: "tsp get-maximum",
        method: "GET",
        path: "/users/{userId}/tsp/{tspId}",
        summary: "Get a user's TSP account",
      },
      {
        name: "phone-numbers unassign-un",
        method: "DELETE",
        path: "/phone_numbers/{id}",
        operationId: "unAssignPhoneNum",
        summary: "Unassign a phone number",
      },
      { name: "webhook update-updatewebhooks", method: "PUT", path: "/webhooks/", summary: "updateWebhooks()" },
    ]);
    const rules = (rule: string) => verdict.findings.filter((f) => f.rule === rule).map((f) => f.name);
    expect(rules("contradicts")).toEqual(["loans get"]);
    expect(rules("numbered-differs")).toEqual(["users schedulers delete-2"]);
    expect(rules("unfounded")).toEqual(["tsp get-maximum"]);
    expect(rules("fragment")).toEqual(["phone-numbers unassign-un"]);
    expect(rules("repeated")).toEqual(["webhook update-updatewebhooks"]);
  });
});
