import { appendFileSync } from "node:fs";
import { join } from "node:path";
import { writeFileAtomic } from "../../core/atomic.js";
import type { StoredResults } from "./facts.js";
import { REPORT_FORMAT_NAMES, REPORT_FORMATS, type ReportFormat } from "./formats.js";

export async function renderReport(results: StoredResults, format: ReportFormat): Promise<string> {
  const render = await REPORT_FORMATS[format].load();
  return render(results);
}

/**
 * Writes every report beside results.json and, in GitHub Actions, appends the step-summary ones to the job's step
 * summary. Returns the files written.
 */
export async function writeReports(results: StoredResults, dir: string): Promise<string[]> {
  const files: string[] = [];
  for (const format of REPORT_FORMAT_NAMES) {
    const spec: (typeof REPORT_FORMATS)[ReportFormat] = REPORT_FORMATS[format];
    const file = join(dir, spec.file);
    const text = await renderReport(results, format);
    writeFileAtomic(file, text);
    files.push(file);
    if ("stepSummary" in spec && process.env.GITHUB_STEP_SUMMARY)
      appendFileSync(process.env.GITHUB_STEP_SUMMARY, `${text}\n`);
  }
  return files;
}
