// One word of a command the person will paste into a shell (a server's name, a folder): bare where
// every character is safe, else in single quotes. Shared by the CLI's next steps and the proxy's
// refusal notes, so both quote a name alike. Not shell-quote's `quote`: that escapes `@`, `=`, `,`
// and `:`, which a person reads as noise in `npx -y @scope/pkg` and `key=value`.
export function shellWord(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replaceAll("'", "'\\''")}'`;
}
