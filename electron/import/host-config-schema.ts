// The shapes of the hosts' config files, in zod. Loose everywhere: hosts add fields all the time
// and an import must read what it understands and leave the rest alone.
import { z } from 'zod';

const scalar = z.union([z.string(), z.number(), z.boolean()]);

/** One server entry, in any host's spelling (stdio or remote). */
export const hostEntrySchema = z.looseObject({
  /** VS Code and Claude Code: stdio | http | sse; others use streamable-http and friends. */
  type: z.string().optional(),
  /** Some Cursor configs say `transport` instead of `type`. */
  transport: z.string().optional(),
  command: z.string().optional(),
  args: z.array(scalar).optional(),
  // VS Code allows null (unset a variable) and numbers.
  env: z.record(z.string(), z.union([scalar, z.null()])).optional(),
  envFile: z.string().optional(),
  cwd: z.string().optional(),
  url: z.string().optional(),
  headers: z.record(z.string(), scalar).optional(),
  disabled: z.boolean().optional(),
});
export type HostEntry = z.infer<typeof hostEntrySchema>;

/** A map of entries; each entry is checked on its own so one broken entry does not hide the rest. */
const serverMap = z.record(z.string(), z.unknown());

/** Claude Desktop, Cursor and Claude Code's .mcp.json. */
export const mcpServersFileSchema = z.looseObject({ mcpServers: serverMap.optional() });

/** VS Code's `inputs`: values it prompts for and substitutes as ${input:id}. */
export const vscodeInputSchema = z.looseObject({
  id: z.string(),
  type: z.string().optional(),
  description: z.string().optional(),
  password: z.boolean().optional(),
  default: z.string().optional(),
});
export type VscodeInput = z.infer<typeof vscodeInputSchema>;

export const vscodeFileSchema = z.looseObject({
  servers: serverMap.optional(),
  inputs: z.array(vscodeInputSchema).optional(),
});

/** ~/.claude.json: user-scope servers at the top, local-scope servers per project folder. */
export const claudeJsonFileSchema = z.looseObject({
  mcpServers: serverMap.optional(),
  projects: z.record(z.string(), z.looseObject({ mcpServers: serverMap.optional() })).optional(),
});
