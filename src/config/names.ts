/** The config file names inter looks for, in order, in each folder from the working directory up. */
export const CONFIG_NAMES = ["intermesh.config.ts", "intermesh.config.mts", "intermesh.config.js", "intermesh.config.mjs"];
