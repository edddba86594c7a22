/** `#file-writer` for every runtime but Node (package.json `imports`): no file writer. */
import type * as FileWriter from './file-writer.js';

export const loadFileWriter: typeof FileWriter.loadFileWriter = undefined;
