/**
 * A graph made with upstream npm `deepagents` (its own `createDeepAgent`, not deeptab's harness), served by
 * `langgraph dev` in the server and e2e tests: the page must work against any deepagents deployment, not only
 * deeptab's graph (issue 19). Its model is the OpenAI-compatible server at `OPENAI_BASE_URL` (the tests' scripted
 * loopback model); `edit_file` asks first (deepagents' human-in-the-loop), and it has one subagent, `researcher`.
 * Files live in deepagents' default state backend (the thread's `files` channel), todos in the `todos` channel of
 * LangChain's todo-list middleware.
 */
import { ChatOpenAI } from "@langchain/openai";
import { createDeepAgent } from "deepagents";
import { todoListMiddleware } from "langchain";

const model = new ChatOpenAI({
  model: "scripted",
  apiKey: "scripted-key",
  configuration: { baseURL: process.env.OPENAI_BASE_URL },
  maxRetries: 0,
});

export const graph = createDeepAgent({
  model,
  systemPrompt: "You are a test agent made with upstream deepagents.",
  interruptOn: { edit_file: true },
  subagents: [{ name: "researcher", description: "Researches one question and reports back.", systemPrompt: "You research." }],
  // deepagents 1.14 no longer adds write_todos by itself: a deployment that wants todos adds LangChain's middleware.
  middleware: [todoListMiddleware()],
});
