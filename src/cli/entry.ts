import { main } from "./main.js";

const code = await main(process.argv.slice(2));
// Let stdout drain before exiting: agents pipe it and must receive the whole document.
process.exitCode = code;
