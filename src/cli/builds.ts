/** `wfa builds get|download`. */
import { createGroup, type Command } from './command.js';
import { downloadCommand } from './builds-download.js';
import { resourceCommands } from './resource-commands.js';

export const builds: Command = createGroup(
  'builds',
  'Read builds',
  resourceCommands('builds', {
    own: [downloadCommand],
    details: { get: 'To wait until it finishes, use "wfa wait-build <build_id>".' },
  }),
);
