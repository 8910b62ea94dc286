// Runs before each test file, in its worker (vitest.config.ts `setupFiles`): files share a worker and its modules there,
// so what a file made is undone when that file ends, not when the worker does.
import { afterAll } from "vitest";
import { endOfFile } from "./helpers.js";

afterAll(endOfFile);
