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
