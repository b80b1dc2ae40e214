/** Records per write batch (and per progress report): docs/import-format.md, "written in batches of 2000". */
export const WRITE_BATCH = 2_000;
