/**
 * The file tools' names, as deepagents names them and in the order the agent offers them: the one list tests
 * compare against (src/middleware/fs-tools.test.ts holds the built tools to it).
 */
import { FILE_TOOL_NAMES } from "../core/tool-names.ts";

export const FILE_TOOLS = FILE_TOOL_NAMES;

/** The file tools but `execute`: what an agent without a sandbox is offered. */
export const FILE_TOOLS_WITHOUT_SHELL = FILE_TOOLS.filter((name) => name !== "execute");
