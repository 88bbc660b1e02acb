/** Tool descriptions shown to the model (deepagents' wording). */
const LS = `Lists all files in a directory.

This is useful for exploring the filesystem and finding the right file to read or edit.
You should almost ALWAYS use this tool before using the read_file or edit_file tools.`;

const READ_FILE =
  `Reads a file from the filesystem.

Assume this tool is able to read all files. If the User provides a path to a file assume that path is valid. ` +
  `It is okay to read a file that does not exist; an error will be returned.

Usage:
- By default, it reads up to 100 lines starting from the beginning of the file
- **IMPORTANT for large files and codebase exploration**: Use pagination with offset and limit parameters to avoid context overflow
- Results are returned using cat -n format, with line numbers starting at 1
- Lines longer than 5,000 characters will be split into multiple lines with continuation markers (e.g., 5.1, 5.2, etc.)
- You should ALWAYS make sure a file has been read before editing it.`;

const WRITE_FILE = `Writes content to a file. Creates the file if it does not exist; replaces it entirely if it does.

Usage:
- Use this tool when you intend to create a new file or replace the whole file. You do not need to read the file first.
- Prefer to edit existing files (with the edit_file tool) over creating new ones when possible.`;

const EDIT_FILE =
  `Performs exact string replacements in files.

Usage:
- You must read the file before editing. This tool will error if you attempt an edit without reading the file first.
- When editing, preserve the exact indentation (tabs/spaces) from the read output. ` +
  `Never include line number prefixes in old_string or new_string.
- ALWAYS prefer editing existing files over creating new ones.
- Only use emojis if the user explicitly requests it.`;

const DELETE = `Deletes a file or directory from the filesystem.

Usage:
- Permanently removes the file or directory at the given absolute path.
- Deleting a directory removes it and everything inside it, recursively. Prefer
  deleting a directory in one call over deleting each file individually.
- This cannot be undone, so only delete paths you are sure are no longer needed.`;

const GLOB = `Find files matching a glob pattern.

Supports standard glob patterns: \`*\` (any characters), \`**\` (any directories), \`?\` (single character).
Returns a list of absolute file paths that match the pattern.

Examples:
- \`**/*.py\` - Find all Python files
- \`*.txt\` - Find all text files in root
- \`/subdir/**/*.md\` - Find all markdown files under /subdir`;

const GREP = `Search for a text pattern across files.

Searches for literal text (not regex) and returns matching files or content based on output_mode.
Special characters like parentheses, brackets, pipes, etc. are treated as literal characters, not regex operators.

Examples:
- Search all files: \`grep(pattern="TODO")\`
- Search Python files only: \`grep(pattern="import", glob="*.py")\`
- Show matching lines: \`grep(pattern="error", output_mode="content")\`
- Search for code with special chars: \`grep(pattern="def __init__(self):")\``;

const EXECUTE =
  `Executes a shell command in an isolated sandbox environment.

Usage:
Executes a given command in the sandbox environment with proper handling and security measures.
Before executing the command, please follow these steps:
1. Directory Verification:
   - If the command will create new directories or files, first use the ls tool to verify the parent directory exists ` +
  `and is the correct location
2. Command Execution:
   - Always quote file paths that contain spaces with double quotes
   - Commands run in an isolated sandbox environment
   - Returns combined stdout/stderr output with exit code
   - Avoid using read or search commands like find, grep, cat; use the ls, read_file, glob and grep tools instead`;

/** A tool's texts in one profile: its description and, for the compact profile, short parameter texts. */
export interface ToolText {
  description: string;
  params?: Record<string, string>;
}

export type ToolTexts = Record<string, ToolText>;

const DEFAULT_TEXTS: ToolTexts = {
  ls: { description: LS },
  read_file: { description: READ_FILE },
  write_file: { description: WRITE_FILE },
  edit_file: { description: EDIT_FILE },
  delete: { description: DELETE },
  glob: { description: GLOB },
  grep: { description: GREP },
  execute: { description: EXECUTE },
};

/**
 * The compact profile, for small context windows: one line per tool and a
 * few words per parameter (the fixed prompt is measured by `npm run bench`).
 */
const COMPACT_TEXTS: ToolTexts = {
  ls: { description: "List a directory.", params: { path: "absolute directory path" } },
  read_file: {
    description: "Read a file as numbered lines (100 by default); page with offset and limit.",
    params: { file_path: "absolute file path", offset: "first line, 0-based", limit: "number of lines" },
  },
  write_file: { description: "Create or replace a file.", params: { file_path: "absolute file path", content: "the text" } },
  edit_file: {
    description: "Replace exact text in a file (read it first).",
    params: {
      file_path: "absolute file path",
      old_string: "text to find (unique)",
      new_string: "replacement",
      replace_all: "replace every match",
    },
  },
  delete: { description: "Delete a file or a directory (recursively).", params: { file_path: "absolute file path" } },
  glob: { description: "Find files by glob pattern.", params: { pattern: "e.g. **/*.md", path: "base directory" } },
  grep: {
    description: "Search files for literal text.",
    params: {
      pattern: "literal text",
      path: "directory",
      glob: "file filter, e.g. *.ts",
      output_mode: "files_with_matches, content or count",
    },
  },
  execute: { description: "Run a shell command in the sandbox.", params: { command: "the command", timeout: "seconds" } },
};

export function describeTools(profile: "default" | "compact"): ToolTexts {
  return profile === "compact" ? COMPACT_TEXTS : DEFAULT_TEXTS;
}
