import type { BuildOptions } from "esbuild";

export declare const runtime: (outdir: string) => BuildOptions;
export declare const search: (outdir: string) => BuildOptions;
export declare const mcp: (outdir: string) => BuildOptions;
