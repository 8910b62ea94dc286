import type { StoredResults } from "./facts.js";

/** One report an evaluation writes beside its results.json. */
export interface ReportFormatSpec {
  /** The file's name in the run folder. */
  readonly file: string;
  /** What it is for, in `inter eval report --format`'s help. */
  readonly purpose: string;
  /** The renderer, loaded when a report is written: the renderers read the agents' tables, which a build never needs. */
  readonly load: () => Promise<(results: StoredResults) => string>;
  /** Appended to GitHub Actions' step summary when the job has one. */
  readonly stepSummary?: true;
}

/**
 * Every report format, the one list the writer, `inter eval report --format`, and the evaluate task's outputs read:
 * a format is one renderer module and one entry here.
 */
export const REPORT_FORMATS = {
  html: {
    file: "report.html",
    purpose: "a page for people",
    load: async () => (await import("./html.js")).renderHtml,
  },
  junit: {
    file: "junit.xml",
    purpose: "a CI's test view",
    load: async () => (await import("./junit.js")).renderJunit,
  },
  md: {
    file: "summary.md",
    purpose: "a pull request or job summary",
    load: async () => (await import("./markdown.js")).renderMarkdown,
    stepSummary: true,
  },
} as const satisfies Record<string, ReportFormatSpec>;

export type ReportFormat = keyof typeof REPORT_FORMATS;

export const REPORT_FORMAT_NAMES = Object.keys(REPORT_FORMATS) as ReportFormat[];

/** The reports' file names, in the formats' order. */
export const REPORT_FILES: readonly string[] = REPORT_FORMAT_NAMES.map((format) => REPORT_FORMATS[format].file);
