import { main } from "./main.js";

// exitCode rather than exit(): stdout must drain fully, agents pipe it.
main(process.argv.slice(2)).then((code) => {
  process.exitCode = code;
});
