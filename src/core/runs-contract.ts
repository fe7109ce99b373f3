/**
 * The runs folder's index, which publish writes (panel/runs.ts) and ingest reads
 * (ingest/runs-folder.ts): `<runs>/index.json` = {"runs_version":1,"months":{"2026-01":"<run-id>", …}}.
 */
export const RUNS_INDEX = 'index.json';
/** Bumped when the index or the folders it names change shape in a way a reader must know. */
export const RUNS_VERSION = 1;
