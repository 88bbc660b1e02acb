/**
 * What an agent folder may hold, whatever its source (a folder, a zip, a JSON bundle). A real agent (instructions,
 * a few subagents and skills, some starter data) fits with room to spare; anything larger is refused before it is
 * read into memory as a whole.
 */

/** Most files in an agent folder. */
export const MAX_AGENT_FILES = 2_000;
/** Most bytes of all its files together (uncompressed). */
export const MAX_AGENT_BYTES = 50 * 1024 * 1024;
/** Most bytes of one file. */
export const MAX_AGENT_FILE_BYTES = 10 * 1024 * 1024;
/** Longest path inside the folder, in characters. */
export const MAX_AGENT_PATH_LENGTH = 1_024;
/** Largest zip or JSON bundle accepted as input (a bundle's base64 makes binary files a third larger). */
export const MAX_AGENT_ARCHIVE_BYTES = 80 * 1024 * 1024;
/** Largest agent.yaml or frontmatter block. */
export const MAX_MANIFEST_BYTES = 256 * 1024;
/** Most problems reported one by one; the rest are counted. */
export const MAX_REPORTED_PROBLEMS = 50;
