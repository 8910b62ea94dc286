#!/usr/bin/env node
// The entry before bin/inter.cjs, kept for the scripts and aliases that name it: the same CLI, started through Node's
// ES module loader first (a warm no-op answers a little later than through bin/inter.cjs).
import "./inter.cjs";
