import { describe, expect, it } from "vitest";
import { remoteTaskOf } from "./remote-task.ts";

const task = { taskId: "th-1", agentName: "surveyor", url: "http://127.0.0.1:2024", graphId: "deeptab", status: "running" };
const tasks = { "th-1": task };

describe("remoteTaskOf", () => {
  it("finds the task a launch answered with, or a check names", () => {
    expect(remoteTaskOf("start_async_task", { agentName: "surveyor" }, "Launched async subagent. taskId: th-1", tasks)).toBe(task);
    expect(remoteTaskOf("check_async_task", { taskId: " th-1 " }, undefined, tasks)).toBe(task);
  });
  it("ignores other tools, unknown tasks and failed launches", () => {
    expect(remoteTaskOf("task", { taskId: "th-1" }, undefined, tasks)).toBeUndefined();
    expect(remoteTaskOf("check_async_task", { taskId: "th-2" }, undefined, tasks)).toBeUndefined();
    expect(remoteTaskOf("start_async_task", {}, "Failed to launch async subagent 'surveyor': fetch failed", tasks)).toBeUndefined();
    expect(remoteTaskOf("check_async_task", { taskId: "th-1" }, undefined, undefined)).toBeUndefined();
  });
});
