declare const __INTER_VERSION__: string | undefined;

/** Injected by the bundler from package.json; tests running from source read it from there. */
export const INTER_VERSION: string = typeof __INTER_VERSION__ === "string" ? __INTER_VERSION__ : "0.0.0-dev";
