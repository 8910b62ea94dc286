import type * as Crypto from "node:crypto";

/**
 * node:crypto, loaded where it is first used. A generated CLI imports this module's callers at every start, and
 * loading node:crypto brings Node's streams with it (about 4 ms, a tenth of `node -e 0`): help and most calls hash
 * nothing, so they never pay it (the start-up budget of docs/architecture.md). Node caches the module: every call after
 * the first is a lookup.
 */
export const nodeCrypto = (): typeof Crypto => process.getBuiltinModule("node:crypto");
