/** `wfa builds get <build_id>`. */
import { createGroup, type Command } from './command.js';
import { downloadCommand } from './builds-download.js';
import { getCommand } from './resource-commands.js';

export const builds: Command = createGroup('builds', 'Read builds', [
  getCommand(
    'builds',
    'build_id',
    "Print a build's current state as JSON",
    (client, id, signal) => client.builds.get(id, { signal }),
    `Prints the build's current state (status, progress, download_url once completed, logs) as JSON on stdout.
To wait until it finishes, use "wfa wait-build <build_id>".`,
  ),
  downloadCommand,
]);
