// The bundles that ship inside every generated CLI, one place for their esbuild options: scripts/build.mjs builds
// them into lib/, and a test that needs a deliberately broken runtime builds a variant from edited source with the
// same options (test/fixtures/variant-bundle.ts) rather than patching a built file's generated names.
import { readFile } from "node:fs/promises";
import { dirname } from "node:path";

// CommonJS, because agents call generated CLIs hundreds of times and Node starts a CommonJS entry without its ES
// module loader.
const common = (outdir) => ({
  outdir,
  outExtension: { ".js": ".cjs" },
  bundle: true,
  format: "cjs",
  platform: "node",
  target: "node20",
  legalComments: "none",
  logLevel: "warning",
  // esbuild names each bundled module by its path: through a symlinked node_modules (a git worktree sharing one
  // install) the real path would be "../elsewhere/node_modules/…", and every candidate's bytes would depend on it.
  preserveSymlinks: true,
});

/**
 * The SDK's server imports its ajv-based schema validator to check answers to elicitation requests, which the
 * generated server never sends; it passes a validator of its own (NO_ELICITATION in src/runtime/mcp-server.ts), so
 * ajv, ajv-formats and fast-uri (a third of mcp.cjs, loaded at every server start) stay out. Should an SDK upgrade
 * move the import, the build fails here; should it construct the default anyway, the stub says so at start.
 */
const withoutAjv = {
  name: "mcp-sdk-without-ajv",
  setup(b) {
    b.onLoad({ filter: /@modelcontextprotocol[\\/]sdk[\\/]dist[\\/]esm[\\/]server[\\/]index\.js$/ }, async (args) => {
      const text = await readFile(args.path, "utf8");
      const from = "import { AjvJsonSchemaValidator } from '../validation/ajv-provider.js';";
      if (!text.includes(from))
        throw new Error(
          `the MCP SDK's server/index.js no longer contains ${from}; revisit scripts/shipped-bundles.mjs`,
        );
      const stub =
        'class AjvJsonSchemaValidator { constructor() { throw new Error("the generated MCP server passes its own jsonSchemaValidator"); } }';
      return { contents: text.replace(from, stub), loader: "js", resolveDir: dirname(args.path) };
    });
  },
};

/**
 * The runtime: one dependency-free module that emit copies into the package. Without its whitespace and comments, as
 * the two bundles below: Node parses the whole file at every start, and a third fewer bytes is about 2 ms of a
 * generated CLI's ~60 ms (the start-up budget of docs/architecture.md). Names are kept, so a stack still reads.
 */
export const runtime = (outdir) => ({
  ...common(outdir),
  entryPoints: { runtime: "src/runtime/main.ts" },
  minifyWhitespace: true,
});

/** The command search `<binary> search` loads (MiniSearch and the ranking): its own file, so no other call parses it. */
export const search = (outdir) => ({
  ...common(outdir),
  entryPoints: { search: "src/runtime/command-finder.ts" },
  minifyWhitespace: true,
});

/**
 * The MCP server beside it (src/runtime/mcp-server.ts), with the MCP SDK bundled in: a candidate installs with no
 * network. Its own file, so a command-line call never loads it.
 */
export const mcp = (outdir) => ({
  ...common(outdir),
  entryPoints: { mcp: "src/runtime/mcp-server.ts" },
  plugins: [withoutAjv],
  minifyWhitespace: true,
});
