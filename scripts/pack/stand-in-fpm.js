#!/usr/bin/env node
// A stand-in for fpm, the tool electron-builder builds .deb files with. electron-builder
// downloads fpm (a bundled Ruby) from GitHub, which this CI cannot reach; its CUSTOM_FPM_PATH
// variable names a replacement. This one takes the `-s dir -t deb` command line electron-builder
// writes (see app-builder-lib's FpmTarget) and builds the same package with Debian's own
// dpkg-deb: the files at the places electron-builder maps them to, a control file from its
// fields, its after-install and after-remove scripts as postinst and postrm. It refuses any option
// it does not know, so a change in what electron-builder asks for fails loudly instead of being
// packed wrong.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const VALUE_OPTIONS = new Set([
  '-s', '-t', '-d', '--architecture', '--after-install', '--after-remove', '--description', '--version', '--package',
  '--name', '--maintainer', '--vendor', '--url', '--license', '--category', '--deb-priority', '--deb-compression',
  '--deb-recommends', '--iteration',
]);
const FLAGS = new Set(['--force']);

export function parseFpmArguments(argv) {
  const options = { depends: [], recommends: [], mappings: [] };
  for (let index = 0; index < argv.length; index++) {
    const arg = argv[index];
    if (FLAGS.has(arg)) continue;
    if (VALUE_OPTIONS.has(arg)) {
      const value = argv[++index];
      if (value === undefined) throw new Error(`fpm stand-in: ${arg} needs a value`);
      if (arg === '-d') options.depends.push(value);
      else if (arg === '--deb-recommends') options.recommends.push(value);
      else options[arg.replace(/^-+/, '')] = value;
      continue;
    }
    if (arg.startsWith('-')) throw new Error(`fpm stand-in: unknown option ${arg}`);
    const at = arg.lastIndexOf('=');
    if (at <= 0) throw new Error(`fpm stand-in: expected SOURCE=DESTINATION, got ${arg}`);
    options.mappings.push({ source: arg.slice(0, at), destination: arg.slice(at + 1) });
  }
  if (options.s !== 'dir' || options.t !== 'deb') throw new Error('fpm stand-in: only -s dir -t deb');
  for (const required of ['name', 'version', 'architecture', 'package', 'maintainer']) {
    if (!options[required]) throw new Error(`fpm stand-in: --${required} is missing`);
  }
  return options;
}

/** A Debian control file; the description's later lines are indented, empty ones are " .". */
export function controlFile(options, installedSizeKiB) {
  const [summary, ...rest] = (options.description ?? options.name).split('\n');
  const body = rest.map((line) => (line.trim() === '' ? ' .' : ` ${line.trim()}`));
  const fields = [
    ['Package', options.name],
    ['Version', options.iteration ? `${options.version}-${options.iteration}` : options.version],
    ['License', options.license],
    ['Vendor', options.vendor],
    ['Architecture', options.architecture],
    ['Maintainer', options.maintainer],
    ['Installed-Size', String(installedSizeKiB)],
    ['Depends', options.depends.join(', ')],
    ['Recommends', options.recommends.join(', ')],
    ['Section', options.category ?? 'default'],
    ['Priority', options['deb-priority'] ?? 'optional'],
    ['Homepage', options.url],
    ['Description', [summary.trim() || options.name, ...body].join('\n')],
  ];
  return `${fields.filter(([, value]) => value).map(([key, value]) => `${key}: ${value}`).join('\n')}\n`;
}

function build(options) {
  const staging = fs.mkdtempSync(path.join(os.tmpdir(), 'fpm-stand-in-'));
  try {
    for (const { source, destination } of options.mappings) {
      const target = path.join(staging, destination);
      // fpm: a source ending in / puts that folder's contents at the destination.
      fs.mkdirSync(source.endsWith('/') ? target : path.dirname(target), { recursive: true });
      fs.cpSync(source, target, { recursive: true, verbatimSymlinks: true });
    }
    const installedSizeKiB = Math.ceil(Number(execFileSync('du', ['-sk', '--apparent-size', staging], { encoding: 'utf8' }).split(/\s/)[0]));
    const debian = path.join(staging, 'DEBIAN');
    fs.mkdirSync(debian);
    fs.writeFileSync(path.join(debian, 'control'), controlFile(options, installedSizeKiB));
    for (const [option, script] of [['after-install', 'postinst'], ['after-remove', 'postrm']]) {
      if (options[option]) fs.copyFileSync(options[option], path.join(debian, script));
      if (options[option]) fs.chmodSync(path.join(debian, script), 0o755);
    }
    const compression = options['deb-compression'] ?? 'xz';
    fs.rmSync(options.package, { force: true });
    execFileSync('dpkg-deb', ['--root-owner-group', `-Z${compression}`, '--build', staging, options.package], { stdio: ['ignore', 'ignore', 'inherit'] });
  } finally {
    fs.rmSync(staging, { recursive: true, force: true });
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(new URL(import.meta.url).pathname)) {
  try {
    build(parseFpmArguments(process.argv.slice(2)));
  } catch (error) {
    process.stderr.write(`${error instanceof Error ? error.message : error}\n`);
    process.exitCode = 1;
  }
}
