import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  COMMAND_TEXT,
  commandText,
  DETAILS_TEXT,
  FLAG_TEXT,
  flagText,
  plainTexts,
} from "../../src/stages/design/descriptions.js";
import { clip, lead, plainText } from "../../src/stages/design/plain-text.js";

describe("plainText: descriptions as an agent reads them", () => {
  it("leaves an entity it does not know as written, the names an object's prototype holds too", () => {
    expect(plainText("A &constructor; and a &toString; stay &unknownthing;.")).toBe(
      "A &constructor; and a &toString; stay &unknownthing;.",
    );
  });

  it("turns HTML into text: block tags into paragraphs and line breaks, entities decoded, code in backticks", () => {
    expect(
      plainText(
        "<p>Hello &amp; <b>world</b></p><p>Use <code>user_id</code>, &lt;id&gt; &#x41;&#66; &nbsp;&mdash; ok</p>",
      ),
    ).toBe("Hello & world\n\nUse `user_id`, <id> AB — ok");
    expect(plainText("First line.<br/>Second line.<BR>Third &quot;quoted&quot;.")).toBe(
      'First line.\nSecond line.\nThird "quoted".',
    );
    expect(plainText('See <a href="https://example.com/x">the guide</a> and <img src="x.png"> done.')).toBe(
      "See the guide and done.",
    );
    expect(plainText("<table><tr><th>a</th><th>b</th></tr><tr><td>1</td><td>2</td></tr></table>")).toBe("a | b\n1 | 2");
    expect(plainText("<!-- hidden --><p>Shown</p><note><p>Mind this.</p></note>")).toBe("Shown\n\nMind this.");
  });

  it("keeps angle brackets that are not HTML: placeholders, comparisons, unclosed tags", () => {
    expect(plainText("GET /users/<id> where a < b and c > d")).toBe("GET /users/<id> where a < b and c > d");
    expect(plainText("Format as `refs/heads/<branch name>` or <branch name>.")).toBe(
      "Format as `refs/heads/<branch name>` or <branch name>.",
    );
    expect(plainText("Use the `<img>` element, not <p")).toBe("Use the `<img>` element, not <p");
    expect(plainText("Escaped &lt;b&gt;bold&lt;/b&gt; stays as written")).toBe("Escaped <b>bold</b> stays as written");
  });

  it("turns Markdown links and images into their text, and drops emphasis and heading marks", () => {
    const spotify =
      "An [ISO 3166-1 alpha-2 country code](https://en.wikipedia.org/wiki/ISO_3166-1_alpha-2).\n  If a country code is specified, only content that is available in that market will be returned.<br/>\n  _**Note**: If neither market or user country are provided, the content is considered unavailable for the client._<br/>\n  Users can view it in the [account settings](https://www.spotify.com/se/account/overview/).";
    expect(plainText(spotify)).toBe(
      "An ISO 3166-1 alpha-2 country code. If a country code is specified, only content that is available in that market will be returned.\nNote: If neither market or user country are provided, the content is considered unavailable for the client.\nUsers can view it in the account settings.",
    );
    expect(
      plainText(
        'A [relative link](/documentation/web-api) and ![logo](https://x/logo.png "Logo") and [ref][1].\n\n[1]: https://example.com',
      ),
    ).toBe("A relative link and logo and ref.");
    expect(
      plainText(
        "Set [`payment_method`](https://stripe.com/docs/api) and the [payment method\ndetails guide](/docs/payments).",
      ),
    ).toBe("Set `payment_method` and the payment method details guide.");
    expect(
      plainText(
        "# Title #\n\nSome *emph*, __strong__, ~~gone~~ and **the `id` field**; snake_case_name and 2*3*4 stay.",
      ),
    ).toBe("Title\n\nSome emph, strong, gone and the `id` field; snake_case_name and 2*3*4 stay.");
    expect(plainText("Escaped \\*stars\\* and \\[brackets\\](x)")).toBe("Escaped *stars* and [brackets](x)");
    expect(plainText("See <https://example.com/docs> for more.")).toBe("See https://example.com/docs for more.");
  });

  it("keeps code spans and fenced code as written", () => {
    expect(plainText("Pass `a*b*c` or `[x](y)` literally.")).toBe("Pass `a*b*c` or `[x](y)` literally.");
    expect(plainText('Example:\n\n```json\n{"a": [1]}\n```\n\nDone.')).toBe('Example:\n\n{"a": [1]}\n\nDone.');
  });

  it("keeps list items and their nesting, in Markdown and HTML", () => {
    expect(plainText("Values:\n- a\n  - b\n    wrapped\n- c\n\n1. one\n2) two")).toBe(
      "Values:\n- a\n  - b wrapped\n- c\n\n1. one\n2. two",
    );
    expect(
      plainText("<p>Values:</p><ul><li><p>a</p><ul><li>b</li></ul></li><li>c</li></ul><ol><li>x</li><li>y</li></ol>"),
    ).toBe("Values:\n\n- a\n  - b\n- c\n1. x\n2. y");
    expect(plainText("| a | b |\n|---|---|\n| 1 | 2 |")).toBe("| a | b |\n| 1 | 2 |");
  });

  it("collapses whitespace: wrapped lines join, paragraphs keep one blank line, control characters go", () => {
    expect(plainText("  one\n   two\t three  \n\n\n\n four\u0007\r\nfive  ")).toBe("one two three\n\nfour five");
    expect(plainText("")).toBe("");
    expect(plainText(undefined)).toBe("");
    expect(plainText("<p></p><br/>")).toBe("");
  });

  it("runs in linear time on hostile input: 1 MB of unclosed tags, brackets, emphasis and nesting", () => {
    const MB = 1_000_000;
    const hostile = [
      "<".repeat(MB),
      "<a".repeat(MB / 2),
      "<!--".repeat(MB / 4),
      "<a href='".repeat(MB / 9),
      "<https:".repeat(MB / 7),
      "<ul><li>".repeat(MB / 8),
      "[a](".repeat(MB / 4),
      `[a](x${" ".repeat(MB)}`,
      "](".repeat(MB / 2),
      "![".repeat(MB / 2),
      "**a".repeat(MB / 3),
      "_a ".repeat(MB / 3),
      "`a".repeat(MB / 2),
      "&#".repeat(MB / 2),
      `${" ".repeat(MB)}x`,
      `# ${" ".repeat(MB)}x`,
      `|${"-".repeat(MB)}x`,
      "  - a\n".repeat(MB / 6),
      Array.from({ length: 1000 }, (_, i) => `${" ".repeat(i)}- a`).join("\n"),
      `<pre>${"a\n".repeat(MB / 2)}`,
    ];
    for (const input of hostile) {
      // A quadratic pass over 1 MB takes minutes, past the test's timeout; a linear one well under a second.
      const out = plainText(input);
      expect(out.length).toBeLessThanOrEqual(input.length * 2);
    }
  });

  it("never throws, and never lets its own markers or control characters through (property)", () => {
    const pieces = [
      "<p>",
      "</p>",
      "<br/>",
      "<ul>",
      "<li>",
      "</ul>",
      "<code>",
      "</code>",
      "<",
      ">",
      "&amp;",
      "&#0;",
      "&#57344;",
      "[",
      "](",
      ")",
      "*",
      "**",
      "_",
      "`",
      "```",
      "\n",
      "\n\n",
      "- ",
      "1. ",
      "# ",
      "> ",
      "|",
      "\\",
      " ",
      "a",
      "\uE001",
      "\u0000",
    ];
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...pieces), { maxLength: 60 }), (parts) => {
        const out = plainText(parts.join(""));
        expect(out).not.toMatch(/[\uE000-\uE1FF\u0000-\u0008\u000B-\u001F]/);
        expect(out).not.toMatch(/\n\n\n/);
        expect(out).toBe(out.trim());
      }),
      { numRuns: 500 },
    );
  });
});

describe("lead and clip: help's bounded line", () => {
  it("keeps the first paragraph when it fits, else whole sentences, else a cut at a word", () => {
    expect(lead("Short one.\n\nMore text.", 100)).toEqual({ text: "Short one.", cut: true });
    expect(lead("Only this.", 100)).toEqual({ text: "Only this.", cut: false });
    const long = `${"The first sentence says what the operation does for the caller. ".repeat(2)}${"x".repeat(300)}`;
    expect(lead(long, 200)).toEqual({
      text: "The first sentence says what the operation does for the caller. The first sentence says what the operation does for the caller.",
      cut: true,
    });
    const words = "word ".repeat(100).trim();
    const cut = lead(words, 50);
    expect(cut.cut).toBe(true);
    expect(cut.text.length).toBeLessThanOrEqual(50);
    expect(cut.text).toMatch(/^word( word)*…$/);
    expect(clip("abc", 10)).toBe("abc");
    expect(clip("x".repeat(20), 10)).toBe(`${"x".repeat(9)}…`);
  });
});

describe("design texts: commands, flags, groups and the product", () => {
  it("a command's line is its summary as plain text; the description, when it says more, is its details", () => {
    expect(
      commandText({
        summary: "Get Album",
        description: "Get Spotify catalog information for a <b>single</b> album.\n",
        method: "get",
        path: "/albums/{id}",
      }),
    ).toEqual({ description: "Get Album", details: "Get Spotify catalog information for a single album." });
    expect(commandText({ summary: "List rooms", description: "List rooms", method: "get", path: "/rooms" })).toEqual({
      description: "List rooms",
    });
    expect(commandText({ summary: "List rooms", method: "get", path: "/rooms" })).toEqual({
      description: "List rooms",
    });
    expect(commandText({ method: "delete", path: "/rooms/{id}" })).toEqual({ description: "DELETE /rooms/{id}" });
    expect(commandText({ summary: " ", description: "<p></p>", method: "get", path: "/x" })).toEqual({
      description: "GET /x",
    });
  });

  it("without a summary, the line is the description's lead within 300 characters and the whole text is the details", () => {
    const description = `<p>${"Creates a message and sends it to the recipient right away. ".repeat(8)}</p><p>Second paragraph.</p>`;
    const text = commandText({ description, method: "post", path: "/messages" });
    expect(text.description.length).toBeLessThanOrEqual(COMMAND_TEXT);
    expect(text.description).toMatch(/^Creates a message.*right away\.$/);
    expect(text.details).toContain("\n\nSecond paragraph.");
    expect(commandText({ description: "One line only.", method: "get", path: "/x" })).toEqual({
      description: "One line only.",
    });
  });

  it("a flag's line stays within 200 characters; the details are bounded too", () => {
    const long = flagText(`${"A sentence about the parameter. ".repeat(20)}`);
    expect(long.description!.length).toBeLessThanOrEqual(FLAG_TEXT);
    expect(long.details).toMatch(/^A sentence about the parameter\./);
    expect(flagText("Page size")).toEqual({ description: "Page size" });
    expect(flagText(undefined)).toEqual({});
    expect(flagText("x ".repeat(40_000)).details!.length).toBeLessThanOrEqual(DETAILS_TEXT);
  });

  it("plainTexts makes product, group and flag descriptions plain and keeps already plain ones as they are (key order too)", () => {
    const caps = {
      product: { name: "P", description: "A [product](https://p.example) for *people*." },
      groups: [
        { name: "albums", description: "<p>Albums &amp; more</p>" },
        { name: "plain", description: "Plain" },
      ],
      commands: [
        {
          name: "albums get",
          flags: [
            { flag: "id", description: "The <code>id</code>.", type: "string" },
            { flag: "n", type: "integer" },
            { flag: "m", description: "<br/>", type: "string" },
          ],
        },
      ],
    };
    const plain = plainTexts(caps);
    expect(plain.product.description).toBe("A product for people.");
    expect(plain.groups).toEqual([
      { name: "albums", description: "Albums & more" },
      { name: "plain", description: "Plain" },
    ]);
    expect(plain.commands[0]!.flags).toEqual([
      { flag: "id", description: "The `id`.", type: "string" },
      { flag: "n", type: "integer" },
      { flag: "m", type: "string" },
    ]);
    expect(Object.keys(plain.commands[0]!.flags[0]!)).toEqual(["flag", "description", "type"]);
  });
});
