import { describe, expect, it } from "vitest";
import { SERVER_AGENT_PREFIX } from "../../page/langgraph-runtime.ts";
import { unlistedMark } from "./unlisted-mark.ts";

describe("the picker's mark for a thread's agent that is not listed", () => {
  it("says an edit (or a saved demo) superseded it, else why else it is missing", () => {
    const listed = [{ editedFrom: "agent:old" }, {}];
    expect(unlistedMark({ id: "agent:old" }, listed)).toBe("older version");
    expect(unlistedMark({ id: "agent:gone" }, listed)).toBe("removed");
    expect(unlistedMark({ id: "agent:new", unreviewed: true }, listed)).toBe("not reviewed");
    expect(unlistedMark({ id: `${SERVER_AGENT_PREFIX}x` }, listed)).toBe("on the server");
  });
});
