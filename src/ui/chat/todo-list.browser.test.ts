/** todo-list.svelte in Chromium: status by icon and text, in-progress highlighted. */
import { afterEach, describe, expect, it } from "vitest";
import { cleanupRendered, render } from "../../testing/render.svelte.ts";
import TodoList from "./todo-list.svelte";

afterEach(cleanupRendered);

describe("todo list", () => {
  it("lists todos with their status in words", () => {
    const el = render(TodoList, {
      todos: [
        { content: "Read the code", status: "completed" },
        { content: "Write the fix", status: "in_progress" },
        { content: "Run the tests", status: "pending" },
      ],
    });
    const items = [...el.querySelectorAll("li")];
    expect(items.map((li) => li.textContent?.replace(/\s+/g, " ").trim())).toEqual([
      "✓ Completed: Read the code",
      "◐ In progress: Write the fix",
      "○ Pending: Run the tests",
    ]);
    expect(items[1]!.classList.contains("in_progress")).toBe(true);
    expect(items[0]!.querySelector(".icon")?.getAttribute("aria-hidden")).toBe("true");
    expect(el.querySelector("ul")?.getAttribute("aria-label")).toBe("Todos");
    expect(el.textContent).toContain("1 of 3 done");
  });

  it("says when there are none", () => {
    expect(render(TodoList, { todos: [] }).textContent).toContain("No todos.");
  });
});
