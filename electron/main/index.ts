// The app's entry. Its one decision comes first, before anything of the desktop app loads: a
// word on the command line (`proxy SERVER`, `status`…) runs the `mcp-roots` command line in this
// process; otherwise the desktop app starts. Nothing here imports `electron`, so the packed entry
// is the same file whichever way it runs.
import { appArguments, commandLineArguments } from './launch-mode.js';

const commandLine = commandLineArguments(appArguments(process.argv, process.defaultApp));

// Awaited: Electron emits `ready` only once the entry module has settled, and the desktop app
// registers its app:// scheme and single-instance lock before that.
if (commandLine) await (await import('./run-command-line.js')).runCommandLine(commandLine);
else await import('./desktop-app.js');
