export interface ScanIssue {
  id: string;
  file: string;
  severity: { name: string } | string;
  location?: { line: number; column: number };
}
export interface Acceptance {
  check: string;
  file: string;
  code: string;
  reason: string;
}
export function matchAcceptances(
  issues: readonly ScanIssue[],
  accepted: readonly Acceptance[],
  lineOf: (issue: ScanIssue) => string,
): { findings: { issue: ScanIssue; code: string; acceptance: Acceptance | undefined }[]; blocking: ScanIssue[]; stale: Acceptance[] };
