/**
 * The runs folder's index, which publish writes (panel/runs.ts) and ingest reads
 * (ingest/runs-folder.ts): `<runs>/index.json` = {"runs_version":1,"months":{"2026-01":"<run-id>", …}}.
 */
export const RUNS_INDEX = 'index.json';
/** Bumped when the index or the folders it names change shape in a way a reader must know. */
export const RUNS_VERSION = 1;

/**
 * The way out for a folder of the runs folder whose files are not as it says (a file changed or
 * gone): publish keeps a folder it finds complete, and writes one anew once it is gone.
 */
export const writeAnew = (dir: string): string => `remove its folder (${dir}) and publish again, which writes the folder anew`;
