// The hosts well-known servers need, offered as suggestions in a server's allowed hosts (never
// granted by themselves: the person adds each). Matched on the package in its command line.
// Each entry is the API host its documentation names; a server not listed gets no suggestion.

const KNOWN: { pkg: RegExp; hosts: string[] }[] = [
  { pkg: /@modelcontextprotocol\/server-github\b|github-mcp-server/, hosts: ['api.github.com'] },
  { pkg: /@modelcontextprotocol\/server-gitlab\b/, hosts: ['gitlab.com'] },
  { pkg: /@modelcontextprotocol\/server-slack\b/, hosts: ['slack.com'] },
  { pkg: /@modelcontextprotocol\/server-brave-search\b/, hosts: ['api.search.brave.com'] },
  { pkg: /@modelcontextprotocol\/server-google-maps\b/, hosts: ['maps.googleapis.com'] },
  { pkg: /@notionhq\/notion-mcp-server\b/, hosts: ['api.notion.com'] },
  { pkg: /@sentry\/mcp-server\b/, hosts: ['sentry.io'] },
  { pkg: /@upstash\/context7-mcp\b/, hosts: ['context7.com'] },
];

/** Suggested hosts for a server's command line (its command and arguments), in the list's own form. */
export function suggestedHosts(commandLine: readonly string[]): string[] {
  const text = commandLine.join(' ');
  return [...new Set(KNOWN.filter((known) => known.pkg.test(text)).flatMap((known) => known.hosts))];
}
