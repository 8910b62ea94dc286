/** The `aws4` package ships no types; runtime/sigv4.ts states the part it uses. */
declare module "aws4";
