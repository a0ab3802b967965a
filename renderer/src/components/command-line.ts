// A whole command line pasted into the Command field, split the way a shell would quote it:
// `GITHUB_TOKEN=x npx -y "@scope/server" "/My Projects"` -> env, command, arguments. Variables are
// kept as written (`$HOME`, `${input:token}`): the app never expands them, as import does not.
// Pipes, redirections and `&&` have no meaning for a server's command and are refused by name.
import { parse } from 'shell-quote';

export interface SplitCommand {
  command: string;
  args: string[];
  /** Leading `NAME=value` assignments, as a shell would pass them to the program. */
  env: [name: string, value: string][];
}

export type SplitResult = { ok: true; value: SplitCommand } | { ok: false; operators: string[] } | { ok: false; empty: true };

const VARIABLE = /(?<!\\)\$(\{[^}]*\}|[A-Za-z_][A-Za-z0-9_]*)/g;
const ASSIGNMENT = /^([A-Za-z_][A-Za-z0-9_]*)=([\s\S]*)$/;

export function splitCommandLine(text: string): SplitResult {
  const kept: string[] = [];
  // Private-use characters stand in for variables while shell-quote reads the line.
  const protectedText = windowsPaths(text.trim()).replace(VARIABLE, (match) => `\uE000${kept.push(match) - 1}\uE001`);
  const restore = (word: string) => word.replace(/\uE000(\d+)\uE001/g, (_, index: string) => kept[Number(index)] ?? '');
  const words: string[] = [];
  const operators: string[] = [];
  for (const entry of parse(protectedText)) {
    if (typeof entry === 'string') words.push(restore(entry));
    else if ('comment' in entry) break;
    else if (entry.op === 'glob') words.push(restore(entry.pattern));
    else operators.push(entry.op);
  }
  if (operators.length > 0) return { ok: false, operators: [...new Set(operators)] };
  const env: [string, string][] = [];
  while (words.length > 1 && ASSIGNMENT.test(words[0]!)) {
    const [, name, value] = ASSIGNMENT.exec(words.shift()!)!;
    env.push([name!, value!]);
  }
  const [command, ...args] = words;
  if (!command) return { ok: false, empty: true };
  return { ok: true, value: { command, args, env } };
}

/** Whether a Command field's text is more than one word: a command line to split, not a program name. */
export function looksLikeCommandLine(text: string): boolean {
  const result = splitCommandLine(text);
  return !result.ok ? 'operators' in result : result.value.args.length > 0 || result.value.env.length > 0;
}

/**
 * `C:\Program Files\nodejs\node.exe` copied from Windows: a backslash there separates folders, it
 * does not escape. Doubled so the POSIX rules keep it (quotes still work around such paths).
 */
function windowsPaths(text: string): string {
  return /(^|[\s"'=])[A-Za-z]:\\|\\\\[^\\\s]+\\/.test(text) ? text.replace(/\\(?!")/g, '\\\\') : text;
}
