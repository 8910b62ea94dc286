import { describe, expect, it } from "vitest";
import { indexCommands, loadIndex, searchIndex } from "../../src/runtime/command-search.js";
import type { Command } from "../../src/runtime/manifest.js";

// Command search's words (src/runtime/search-words.ts): what a request's values say, phrasal verbs with their object
// inside, and words of related meaning. Each case fails without its mechanism.

const command = (name: string, method: string, description: string, flags: string[] = []): Command =>
  ({
    name,
    path: name.split(" "),
    description,
    flags: flags.map((flag) => ({ flag })),
    operation: { method, path: `/${name.replace(/ /g, "/")}` },
  }) as unknown as Command;

const COMMANDS = [
  command("instances create", "post", "Create a Linode instance"),
  command("instances reboot", "post", "Reboot a Linode instance"),
  command("instances delete", "delete", "Delete a Linode instance"),
  command("images create", "post", "Create an image"),
  command("env create", "post", "Create environment variables for an account", ["key", "value"]),
  command("sites create", "post", "Create a site"),
  command("domain-records create", "post", "Create a DNS record", ["name", "ip"]),
  command("posts delete", "delete", "Delete a post"),
  command("posts create", "post", "Create a post"),
  command("jobs retry", "post", "Retry a job"),
  command("jobs get", "get", "Get a job"),
  command("disputes list", "get", "List disputes"),
  command("payments list", "get", "List payments"),
];
/** The commands' index as a generated CLI loads it: built by emit, serialized, read back. */
const indexOf = (commands: Command[]) => loadIndex(JSON.stringify(indexCommands(commands, [])));
const index = indexOf(COMMANDS);
const first = (query: string) => searchIndex(index, query)[0];

describe("command search's words", () => {
  it("reads a request's values for what they are: an environment variable, an IP address", () => {
    expect(first("make AWS_REGION=us-east-1 available to every build")).toBe("env create");
    expect(first("point api.example.com at 203.0.113.10")).toBe("domain-records create");
  });

  it("reads a phrasal verb whose object sits inside it", () => {
    expect(first("post 99812 leaks a phone number, take it down")).toBe("posts delete");
    expect(first("job 877 failed on a flaky network call, run it again")).toBe("jobs retry");
  });

  it("finds a command by a word of related meaning, below one named by the word itself", () => {
    expect(first("spin up a new server")).toBe("instances create");
    expect(first("web-02 is stuck, bounce the box")).toBe("instances reboot");
    expect(first("list the chargebacks customers filed")).toBe("disputes list");
    // The word said wins over a related one: "payments" is named, not "charges".
    expect(first("list payments")).toBe("payments list");
  });

  it("reads what a request asks from its action, said after the circumstances", () => {
    const servers = indexOf([
      command("servers get", "get", "Get a server"),
      command("servers list", "get", "List servers"),
      command("servers reboot", "post", "Reboot a server"),
      command("servers update", "put", "Update a server"),
      command("servers delete", "delete", "Delete a server"),
    ]);
    // "is" describes here, it does not ask: the writes come before the reads.
    for (const request of [
      "the box is unused, get rid of it",
      "the server is old, replace it with a bigger one",
      "the server is stuck and has no network, turn it off and on again",
    ])
      expect(searchIndex(servers, request).slice(0, 3), request).not.toContain("servers get");
  });

  it("a request of the words an object's prototype holds finds nothing and breaks nothing", () => {
    for (const request of ["constructor", "watch constructor", "toString the __proto__", "hasOwnProperty valueOf"])
      expect(() => searchIndex(index, request), request).not.toThrow();
  });

  it("reads what a question's word asks for: people for who, an amount for how much", () => {
    const billing = indexOf([
      command("teams get", "get", "Get a team"),
      command("teams members list", "get", "List the members of a team"),
      command("invoices get", "get", "Get an invoice"),
      command("invoices get-balance", "get", "Get the amount due on an invoice"),
    ]);
    expect(searchIndex(billing, "who is on the platform team?")[0]).toBe("teams members list");
    expect(searchIndex(billing, "how much is still open on invoice 42?")[0]).toBe("invoices get-balance");
  });

  it("reads whether a request asks for one item or for several", () => {
    const sites = indexOf([
      command("sites get", "get", "Get a site"),
      command("sites list", "get", "List sites"),
      command("invoices get", "get", "Get an invoice"),
      command("invoices list", "get", "List invoices"),
    ]);
    // A plural, "all" or "which" asks for several; a value names one.
    expect(searchIndex(sites, "what sites do I have?")[0]).toBe("sites list");
    expect(searchIndex(sites, "which site is the oldest?")[0]).toBe("sites list");
    expect(searchIndex(sites, "has INV-0042 been paid yet? what's the invoice's status")[0]).toBe("invoices get");
    expect(searchIndex(sites, "show me site web-01")[0]).toBe("sites get");
  });

  it("reads what a request's phrases and values say of the thing it wants", () => {
    const api = indexOf([
      command("bookings cancel", "post", "Cancel a booking"),
      command("payments cancel", "post", "Cancel a payment"),
      command("subscriptions cancel", "post", "Cancel a subscription"),
      command("cards disable", "post", "Disable a card"),
      command("webhooks create", "post", "Create a webhook subscription", ["url", "events"]),
      command("tracking start", "post", "Start tracking a package", ["tracking-number"]),
      command("tracking get", "get", "Get a package's tracking status"),
      command("unsubscribes list", "get", "List the addresses that opted out", ["email"]),
      command("invalid-emails list", "get", "List invalid email addresses"),
      command("logins list", "get", "List the account's recent logins"),
      command("users list", "get", "List users"),
      command("builds create", "post", "Trigger a new build of a site"),
      command("sites get", "get", "Get a site"),
      command("repository compare", "get", "Compare two refs of a repository", ["from", "to"]),
      command("repository tags list", "get", "List a repository's tags"),
      command("branches protect", "post", "Protect a branch", ["name", "push-access-level", "merge-access-level"]),
      command("branches create", "post", "Create a branch"),
      command("stats list", "get", "Retrieve global email statistics", ["start-date"]),
      command("emails list", "get", "List sent emails"),
      command("gift-cards get", "get", "Get a gift card"),
      command("gift-cards get-balance", "get", "Get the remaining balance of a gift card"),
      command("checks create", "post", "Create an uptime check", ["url"]),
      command("sites list", "get", "List sites"),
    ]);
    const top = (request: string) => searchIndex(api, request)[0];
    expect(top("John can't make his Tuesday 3pm haircut, call it off")).toBe("bookings cancel");
    expect(top("stop charging Maria for the monthly coffee club")).toBe("subscriptions cancel");
    // Both tracking commands say more of its words; the address to call when something happens lifts the webhook.
    expect(
      searchIndex(api, "ping https://example.com/hooks/ship whenever a package's tracking status changes").slice(0, 3),
    ).toContain("webhooks create");
    expect(top("list everybody who has opted out of our emails")).toBe("unsubscribes list");
    expect(top("show me who logged in recently")).toBe("logins list");
    expect(top("rebuild the marketing site from the latest commit")).toBe("builds create");
    expect(top("what changed between v1.2.0 and v1.3.0?")).toBe("repository compare");
    expect(top("make sure nobody can push directly to release/2.0")).toBe("branches protect");
    expect(searchIndex(api, "how did our emails do last week?").slice(0, 2)).toContain("stats list");
    expect(top("what's left on gift card 7783 3200 0000 0000?")).toBe("gift-cards get-balance");
    expect(top("watch https://my-site.com and tell me if it goes down")).toBe("checks create");
  });

  it("reads an order whose verb is a noun the API says as asking for one to be made", () => {
    const tags = indexOf([
      command("tags archive", "post", "Archive a tag"),
      command("tags create", "post", "Create a tag"),
    ]);
    expect(searchIndex(tags, "tag the current main as v2.1.0")[0]).toBe("tags create");
    expect(searchIndex(tags, "Tag the current main as v2.1.0")[0]).toBe("tags create");
    // Neither someone's thing nor a name the API never says asks for anything: the two keep their order.
    expect(searchIndex(tags, "tag's v2.1.0")[0]).toBe("tags archive");
    expect(searchIndex(tags, "Carol wants a tag for v2.1.0")[0]).toBe("tags archive");
  });
});
