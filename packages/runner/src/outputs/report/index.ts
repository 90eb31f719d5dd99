export { createDepicter, createReportChemistry } from "./highlight-depiction.ts";
export { printReportPdf, REPORT_PDF } from "./print-report-pdf.ts";
export { REPORT_DEFAULTS, type ReportOptions, resolveReportOptions } from "./report-options.ts";
export { REPORT_CSV, REPORT_HTML, ReportWriter } from "./report-writer.ts";
