/**
 * `builds.downloadToFile`'s writer, loaded on its first use, on Node only: built, this is the package's
 * `#file-writer` import, which every other runtime resolves to `file-writer.browser.ts` (as `#node-parts`).
 */
export const loadFileWriter: (() => Promise<typeof import('./write-to-file.js')>) | undefined = () => import('./write-to-file.js');
