// The hosts a known server's package usually needs: offered in its detail and by `status --network`.
import { describe, expect, it } from 'vitest';
import { suggestedHosts } from '../../../shared/known-server-hosts.js';
import { parseHostPattern } from '../../../shared/host-patterns.js';

describe('suggested hosts', () => {
  it('names the API host of a known package, in the list\'s own form, and nothing for any other', () => {
    expect(suggestedHosts(['npx', '-y', '@modelcontextprotocol/server-github'])).toEqual(['api.github.com']);
    expect(suggestedHosts(['npx', '-y', '@notionhq/notion-mcp-server@1.2.0'])).toEqual(['api.notion.com']);
    expect(suggestedHosts(['node', 'my-server.js'])).toEqual([]);
    for (const host of suggestedHosts(['@modelcontextprotocol/server-github @modelcontextprotocol/server-slack @sentry/mcp-server'])) {
      const parsed = parseHostPattern(host);
      expect(parsed.ok && parsed.pattern.text).toBe(host);
    }
  });
});
