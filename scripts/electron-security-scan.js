#!/usr/bin/env node
// `npm run security:electron`: Electronegativity (Doyensec's static scanner for Electron
// misconfigurations) over the code that runs in Electron: electron/main, electron/preload and the
// renderer. Fails on any HIGH finding not accepted, with a reason, in
// security/electronegativity-accepted.json, and on any file the scanner could not parse (a file
// it skipped is a file nobody checked). The full report goes to a CSV file.
//
// An acceptance names one finding, not a file: its check, its file and the source line it is on
// (`code`, trimmed, so it survives lines moving). Each acceptance covers exactly one finding: a
// second insecure window in the same file, even on an identical line, is a new finding that blocks.
//
// The three folders are scanned as ONE app: the scanner's global checks (CSP, navigation limits,
// permission handler) look for their setup anywhere in the input, and it sits in electron/main
// while the windows it protects are built elsewhere. So they are copied, paths kept, into one
// temporary folder.
//
//   node scripts/electron-security-scan.js [--output FILE.csv]
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const SCANNED = ['electron/main', 'electron/preload', 'renderer/src', 'renderer/index.html', 'renderer/public'];
const ACCEPTED_FILE = path.join(root, 'security/electronegativity-accepted.json');

function outputPath() {
  const at = process.argv.indexOf('--output');
  const chosen = at === -1 ? undefined : process.argv[at + 1];
  return path.resolve(root, chosen ?? 'test-results/electronegativity/report.csv');
}

/** The Electron we ship: its defaults decide what the scanner must flag (e.g. contextIsolation since 12). */
function electronVersion() {
  try {
    return require('electron/package.json').version;
  } catch {
    const declared = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')).devDependencies?.electron ?? '';
    const match = /\d+\.\d+\.\d+/.exec(declared);
    if (!match) throw new Error('Cannot tell which Electron version the app uses.');
    return match[0];
  }
}

function loadAccepted() {
  const data = JSON.parse(fs.readFileSync(ACCEPTED_FILE, 'utf8'));
  const problems = [];
  for (const [list, keys] of [
    ['accepted', ['check', 'file', 'code', 'reason']],
    ['excludedChecks', ['check', 'reason']],
  ]) {
    for (const [index, entry] of (data[list] ?? []).entries()) {
      for (const key of keys) {
        if (typeof entry[key] !== 'string' || entry[key].trim() === '') problems.push(`${list}[${index}] has no ${key}`);
      }
    }
  }
  if (problems.length > 0) throw new Error(`${path.relative(root, ACCEPTED_FILE)}: ${problems.join('; ')}`);
  return { accepted: data.accepted ?? [], excludedChecks: data.excludedChecks ?? [] };
}

function stage() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'electronegativity-'));
  for (const relative of SCANNED) {
    const from = path.join(root, relative);
    if (fs.existsSync(from)) fs.cpSync(from, path.join(dir, relative), { recursive: true });
  }
  return dir;
}

const severityName = (issue) => issue.severity?.name ?? String(issue.severity);
const confidenceName = (issue) => issue.confidence?.name ?? String(issue.confidence);
const where = (issue) => `${issue.file}:${issue.location?.line ?? 0}:${issue.location?.column ?? 0}`;

/**
 * Pairs findings with acceptances, one to one: an acceptance is used up by the first finding with
 * its check, file and source line. HIGH findings left without one block.
 */
export function matchAcceptances(issues, accepted, lineOf) {
  const used = new Set();
  const findings = issues.map((issue) => {
    const code = lineOf(issue);
    const acceptance = accepted.find(
      (entry) => !used.has(entry) && entry.check === issue.id && entry.file === issue.file && entry.code === code,
    );
    if (acceptance) used.add(acceptance);
    return { issue, code, acceptance };
  });
  return {
    findings,
    blocking: findings.filter((finding) => !finding.acceptance && severityName(finding.issue) === 'HIGH').map((finding) => finding.issue),
    stale: accepted.filter((entry) => !used.has(entry)),
  };
}

/** The trimmed source line a finding points at: what an acceptance names. */
function sourceLine(issue) {
  try {
    const lines = fs.readFileSync(path.join(root, issue.file), 'utf8').split('\n');
    return (lines[(issue.location?.line ?? 0) - 1] ?? '').trim();
  } catch {
    return '';
  }
}

async function main() {
  const { accepted, excludedChecks } = loadAccepted();
  const output = outputPath();
  fs.mkdirSync(path.dirname(output), { recursive: true });
  const run = require('@doyensec/electronegativity');
  const input = stage();
  let result;
  try {
    result = await run(
      {
        input,
        output,
        isSarif: output.endsWith('.sarif'),
        isRelative: true,
        customScan: [],
        excludeFromScan: excludedChecks.map((entry) => entry.check.toLowerCase()),
        electronVersionOverride: electronVersion(),
        parserPlugins: [],
      },
      false,
    );
  } finally {
    fs.rmSync(input, { recursive: true, force: true });
  }

  const unparsed = result.errors.filter((error) => !error.tolerable);
  const { findings, blocking, stale } = matchAcceptances(result.issues, accepted, sourceLine);
  console.log(`Electronegativity on ${SCANNED.join(', ')} (Electron ${electronVersion()}): ${result.issues.length} finding(s).`);
  for (const { issue, code, acceptance } of findings) {
    const mark = acceptance ? 'accepted' : blocking.includes(issue) ? 'BLOCKING' : 'note';
    console.log(`  [${mark}] ${severityName(issue)}/${confidenceName(issue)} ${issue.id} at ${where(issue)}`);
    console.log(`      ${acceptance ? acceptance.reason : issue.description}`);
    if (!acceptance) console.log(`      code: ${JSON.stringify(code)}`);
  }
  for (const entry of stale) {
    console.log(`  (stale) ${entry.check} in ${entry.file} at ${JSON.stringify(entry.code)} is accepted but no longer found: remove it from the list.`);
  }
  for (const error of unparsed) console.log(`  [NOT SCANNED] ${path.relative(input, error.file)}: ${error.message}`);
  console.log(`Report: ${path.relative(root, output)}`);

  if (blocking.length > 0 || unparsed.length > 0) {
    console.error(
      `${blocking.length} HIGH finding(s) not accepted, ${unparsed.length} file(s) not parsed. Fix them, or accept a ` +
        `finding with a one-line reason in ${path.relative(root, ACCEPTED_FILE)}.`,
    );
    process.exitCode = 1;
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().catch((error) => {
    console.error(error instanceof Error ? error.message : error);
    process.exitCode = 1;
  });
}
