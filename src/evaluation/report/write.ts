import { appendFileSync } from "node:fs";
import { join } from "node:path";
import { writeFileAtomic } from "../../core/atomic.js";
import type { StoredResults } from "./facts.js";
import { renderHtml } from "./html.js";
import { renderJunit } from "./junit.js";
import { renderMarkdown } from "./markdown.js";

export type ReportFormat = "html" | "junit" | "md";

const REPORT_FILES: Record<ReportFormat, string> = { html: "report.html", junit: "junit.xml", md: "summary.md" };

export function renderReport(results: StoredResults, format: ReportFormat): string {
  return format === "html" ? renderHtml(results) : format === "junit" ? renderJunit(results) : renderMarkdown(results);
}

/**
 * Writes the three reports beside results.json and, in GitHub Actions, appends the summary to the job's step summary.
 * Returns the files written.
 */
export function writeReports(results: StoredResults, dir: string): string[] {
  const files: string[] = [];
  for (const format of Object.keys(REPORT_FILES) as ReportFormat[]) {
    const file = join(dir, REPORT_FILES[format]);
    const text = renderReport(results, format);
    writeFileAtomic(file, text);
    files.push(file);
    if (format === "md" && process.env.GITHUB_STEP_SUMMARY)
      appendFileSync(process.env.GITHUB_STEP_SUMMARY, `${text}\n`);
  }
  return files;
}
