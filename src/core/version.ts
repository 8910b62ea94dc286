declare const __INTER_VERSION__: string | undefined;
declare const __INTER_BUILD__: string | undefined;

/** Injected by the bundler from package.json; tests running from source read it from there. */
export const INTER_VERSION: string = typeof __INTER_VERSION__ === "string" ? __INTER_VERSION__ : "0.0.0-dev";

/** Version plus a hash of the sources it was built from: what cache keys record as "inter". */
export const INTER_BUILD: string = `${INTER_VERSION}+${typeof __INTER_BUILD__ === "string" ? __INTER_BUILD__ : "source"}`;
