// The import feature's part of the contract: reading other hosts' configs and pointing them at
// `mcp-roots proxy`. The shells add these to the host's own handlers where they are wired up.
import type { ContractHandlers } from '../host/contract-handlers.js';
import { applyImportCommand, previewImportCommand, previewSnippetCommand } from './import-channels.js';
import { applyUseWithCommand, previewUseWithCommand } from './use-with-channels.js';

export const importHandlers = {
  'import.preview': previewImportCommand,
  'import.snippet': previewSnippetCommand,
  'import.apply': applyImportCommand,
  'useWith.preview': previewUseWithCommand,
  'useWith.apply': applyUseWithCommand,
} satisfies Partial<ContractHandlers>;
