// `mcp-roots completion bash|zsh|fish`: each script is valid for its shell (bash -n, zsh -n, fish -n)
// and completes in it: subcommands, options, option values, and the registry's server and root
// names through the real `mcp-roots` on PATH. zsh's completion builtins need an interactive
// widget, so there the functions the script calls (_describe, compadd, _files) are stand-ins that
// print what they were given.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI_BIN, ensureBuilt, repoRoot, runCli } from '../support/cli.js';
import { removeTempDirs, tempDir } from '../support/temp-dirs.js';

const shells = ['bash', 'zsh', 'fish'] as const;
const installed = (shell: string) => {
  try {
    execFileSync('sh', ['-c', `command -v ${shell}`], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
};
for (const shell of shells) if (!installed(shell)) console.log(`Skipping the ${shell} completion checks: ${shell} is not installed (Debian: apt-get install ${shell}).`);

let scripts: Record<(typeof shells)[number], string>;
let env: NodeJS.ProcessEnv;
let configDir: string;

beforeAll(async () => {
  await ensureBuilt();
  const bin = tempDir('completion-bin-');
  fs.writeFileSync(path.join(bin, 'mcp-roots'), `#!/bin/sh\nexec "${process.execPath}" "${CLI_BIN}" "$@"\n`, { mode: 0o755 });
  configDir = tempDir('completion-config-');
  const project = path.join(tempDir('completion-roots-'), 'project');
  fs.mkdirSync(project);
  env = { PATH: `${bin}:${process.env.PATH}`, HOME: tempDir('completion-home-') };
  // A root whose name has a space, and a folder of that name where the shells run (not the root).
  const notes = path.join(path.dirname(project), 'My Notes');
  fs.mkdirSync(notes);
  await runCli(['--config-dir', configDir, 'roots', 'add', project, notes]);
  await runCli(['--config-dir', configDir, 'servers', 'add', 'filesystem', '--', 'node', 'server.js']);
  const dir = tempDir('completion-scripts-');
  scripts = { bash: '', zsh: '', fish: '' };
  for (const shell of shells) {
    const result = await runCli(['completion', shell]);
    expect(result.code).toBe(0);
    scripts[shell] = path.join(dir, `mcp-roots.${shell}`);
    fs.writeFileSync(scripts[shell], result.stdout);
  }
  fs.mkdirSync(path.join(dir, 'My Notes'));
}, 600_000);

afterAll(removeTempDirs);

function run(command: string, args: string[]): string {
  return execFileSync(command, args, { env, encoding: 'utf8', cwd: path.dirname(scripts.bash) });
}

describe.each(shells)('%s completion', (shell) => {
  it.skipIf(!installed(shell))('is valid syntax', () => {
    execFileSync(shell, ['-n', scripts[shell]]);
  });
});

describe.skipIf(!installed('bash'))('in bash', () => {
  const complete = (...words: string[]) =>
    run('bash', ['-c', `source '${scripts.bash}'; COMP_WORDS=(${words.map((word) => `'${word}'`).join(' ')}); COMP_CWORD=$((\${#COMP_WORDS[@]} - 1)); _mcp_roots; printf '%s\\n' "\${COMPREPLY[@]}"`])
      .split('\n')
      .filter(Boolean);

  it('completes commands, subcommands, options and their values', () => {
    expect(complete('mcp-roots', 'se')).toEqual(['servers', 'serve']);
    expect(complete('mcp-roots', 'servers', '')).toEqual(['add', 'set', 'remove', 'list']);
    expect(complete('mcp-roots', 'servers', 'set', 'x', '--sh')).toEqual(['--sharing']);
    expect(complete('mcp-roots', 'servers', 'set', 'x', '--sharing', '')).toEqual(['on', 'off']);
    expect(complete('mcp-roots', 'completion', '')).toEqual(['bash', 'zsh', 'fish']);
  });

  it('completes server and root names from the registry', () => {
    expect(complete('mcp-roots', '--config-dir', configDir, 'grant', '')).toEqual(['filesystem']);
    expect(complete('mcp-roots', '--config-dir', configDir, 'grant', 'filesystem', 'proj')).toContain('project');
  });

  it('offers a name with a space once, quoted the way the word was begun', () => {
    const grant = ['mcp-roots', '--config-dir', configDir, 'grant', 'filesystem'];
    expect(complete(...grant, 'My')).toEqual(['My\\ Notes']);
    expect(complete(...grant, 'My\\ N')).toEqual(['My\\ Notes']);
    expect(complete(...grant, '"My')).toEqual(['"My Notes"']);
  });
});

describe.skipIf(!installed('fish'))('in fish', () => {
  const complete = (line: string) =>
    run('fish', ['-c', `source '${scripts.fish}'; complete -C '${line}'`])
      .split('\n')
      .filter(Boolean)
      .map((entry) => entry.split('\t')[0]);

  it('completes commands, subcommands, options and their values', () => {
    expect(complete('mcp-roots se')).toEqual(['serve', 'servers']);
    expect(complete('mcp-roots servers ')).toEqual(['add', 'list', 'remove', 'set']);
    expect(complete('mcp-roots servers set x --sharing ')).toEqual(['off', 'on']);
  });

  it('completes server and root names from the registry', () => {
    expect(complete(`mcp-roots --config-dir ${configDir} grant `)).toEqual(['filesystem']);
    expect(complete(`mcp-roots --config-dir ${configDir} grant filesystem proj`)).toContain('project');
  });

  it('offers a root name once, not beside a folder here of the same name', () => {
    expect(complete(`mcp-roots --config-dir ${configDir} grant filesystem My`)).toEqual(['My Notes']);
  });
});

describe.skipIf(!installed('zsh'))('in zsh', () => {
  const complete = (...words: string[]) =>
    run('zsh', [
      '-f',
      '-c',
      [
        'compdef() { }',
        '_describe() { print -rl -- ${(P)4} }',
        'compadd() { [[ $1 == -a ]] && print -rl -- ${(P)2} }',
        '_files() { }',
        `source '${scripts.zsh}'`,
        `words=(${words.map((word) => `'${word}'`).join(' ')}); CURRENT=\${#words}; PREFIX=\${words[CURRENT]}`,
        '_mcp_roots',
      ].join('\n'),
    ])
      .split('\n')
      .filter(Boolean);

  it('completes subcommands with their descriptions, and option values', () => {
    expect(complete('mcp-roots', 'servers', '')).toEqual([
      'add:add a server; it sees no folder until you grant one',
      'set:change a server: name, command, args, env, cwd, url, headers, on/off settings',
      'remove:remove servers (and their grants)',
      'list:every server with its command or URL, env or headers (secrets masked) and grants',
    ]);
    expect(complete('mcp-roots', 'servers', 'add', 'x', '--transport', '')).toEqual(['http', 'sse']);
  });

  it('completes server names from the registry', () => {
    expect(complete('mcp-roots', '--config-dir', configDir, 'grant', '')).toEqual(['filesystem']);
  });
});

// What a person gets: the shell on a terminal, Tab pressed after "My", then Enter. The completed
// word must reach mcp-roots as the root's name ("My Notes"), whatever folder of that name is here.
const typist = path.join(repoRoot, 'tests/fixtures/type-in-shell.py');
const setups = {
  bash: () => `source '${scripts.bash}'`,
  zsh: () => `autoload -Uz compinit; compinit -u; source '${scripts.zsh}'`,
  fish: () => `source '${scripts.fish}'`,
};
describe.each(shells)('Tab in an interactive %s', (shell) => {
  it.skipIf(!installed(shell) || !installed('python3'))('completes "My" to the root "My Notes", and the grant works', async () => {
    await runCli(['--config-dir', configDir, 'revoke', 'filesystem', 'My Notes']);
    const transcript = run('python3', [typist, shell, setups[shell](), `mcp-roots --config-dir ${configDir} grant filesystem My\t`]);
    expect(transcript).not.toContain('No root matches');
    expect(transcript).toContain('granted My Notes to filesystem');
  });
});
