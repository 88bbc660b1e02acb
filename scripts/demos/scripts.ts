/**
 * The scripted conversations the site's agents' demos are recorded from (scripts/demos/main.ts): for each folder
 * under `agents/`, one of its starter prompts and the replies a capable model would give, step by step, the main
 * agent's and its subagent's. They call only tools whose results are the same in every tab (files, the offline
 * shell's text tools over the starter files, todos, a subagent); never a command whose output depends on the
 * machine (the coding agent's demo reads and edits files only: its `npm test` would run in a WebContainer).
 */
/** A scripted model reply: text, tool calls, or both. */
export interface ScriptedReply {
  text?: string;
  toolCalls?: Array<{ name: string; args: Record<string, unknown> }>;
}

/** One demo's script: the agent folder, the prompt (one of its `suggestions`), and the replies in order. */
export interface DemoScript {
  /** The folder under `agents/`. */
  agent: string;
  /** The starter prompt the demo answers (agent.yaml `suggestions`). */
  prompt: string;
  /** The demo's title (its file name is made from it). */
  title: string;
  /** The main agent's replies, by how many it gave before. */
  main: ScriptedReply[];
  /** The subagent's replies (the one `task` call of the script), by how many it gave before. */
  subagent?: ScriptedReply[];
  /** Approve every paused tool call (the person's click; the tab asks the visitor the same). */
  approve?: boolean;
}

const todos = (items: Array<[string, "pending" | "in_progress" | "completed"]>) => ({
  name: "write_todos",
  args: { todos: items.map(([content, status]) => ({ content, status })) },
});
const read = (path: string) => ({ name: "read_file", args: { file_path: path } });
const edit = (path: string, oldString: string, newString: string) => ({
  name: "edit_file",
  args: { file_path: path, old_string: oldString, new_string: newString },
});

// ---- Node.js coder: review and fix, with the reviewer subagent (files only) ----

const CODING_STEPS = ["Read src/index.js and its tests", "Ask the reviewer for bugs and edge cases", "Fix what I agree with", "Summarize"];

/** The last test of /src/index.test.js, and the two the demo adds after it. */
const LAST_TEST = [
  'test("ignores punctuation and line breaks", () => {',
  '  assert.deepEqual(countWords("Hello,\\nhello!"), new Map([["hello", 2]]));',
  "});",
  "",
].join("\n");
const BLANK_TEST = [
  'test("counts nothing in empty or blank text", () => {',
  '  assert.deepEqual(countWords(""), new Map());',
  '  assert.deepEqual(countWords("  \\t\\n"), new Map());',
  "});",
  "",
].join("\n");
const SPACES_TEST = [
  'test("treats runs of spaces as one gap and keeps apostrophes", () => {',
  "  assert.deepEqual(",
  '    countWords("don\'t  stop"),',
  "    new Map([",
  '      ["don\'t", 1],',
  '      ["stop", 1],',
  "    ]),",
  "  );",
  "});",
  "",
].join("\n");

const coding: DemoScript = {
  agent: "coding",
  prompt: "Review src/index.js for bugs and edge cases, then fix the ones you agree with.",
  title: "Review and fix the word counter",
  main: [
    {
      text: "I'll read the code and its tests, ask the reviewer for a second opinion, then fix what holds up.",
      toolCalls: [
        todos([
          [CODING_STEPS[0]!, "in_progress"],
          [CODING_STEPS[1]!, "pending"],
          [CODING_STEPS[2]!, "pending"],
          [CODING_STEPS[3]!, "pending"],
        ]),
      ],
    },
    { toolCalls: [read("/src/index.js"), read("/src/index.test.js")] },
    {
      text:
        '`countWords` splits on single spaces only, so the second test ("ignores punctuation and line breaks") cannot pass. ' +
        "Let me get the reviewer's list before I change anything.",
      toolCalls: [
        {
          name: "task",
          args: {
            subagent_type: "reviewer",
            description:
              "Review /src/index.js (a word counter: countWords(text) returns a Map of word → count) and its tests in " +
              "/src/index.test.js. List bugs with the input that triggers each, and untested edge cases.",
          },
        },
      ],
    },
    {
      text: "I agree with all three points. First the split: words are runs of letters, digits and apostrophes.",
      toolCalls: [
        edit(
          "/src/index.js",
          '  for (const word of text.toLowerCase().split(" ")) {',
          "  for (const word of text.toLowerCase().match(/[\\p{L}\\p{N}']+/gu) ?? []) {",
        ),
      ],
    },
    {
      text: "Then the check for being run directly, which breaks on paths with spaces:",
      toolCalls: [
        edit(
          "/src/index.js",
          'import { readFileSync } from "node:fs";\n',
          'import { readFileSync } from "node:fs";\nimport { pathToFileURL } from "node:url";\n',
        ),
      ],
    },
    {
      toolCalls: [
        edit(
          "/src/index.js",
          "if (import.meta.url === `file://${process.argv[1]}`) {",
          "if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {",
        ),
      ],
    },
    {
      text: "And tests for the edge cases the reviewer found:",
      toolCalls: [edit("/src/index.test.js", LAST_TEST, [LAST_TEST, BLANK_TEST, SPACES_TEST].join("\n"))],
    },
    {
      toolCalls: [
        todos([
          [CODING_STEPS[0]!, "completed"],
          [CODING_STEPS[1]!, "completed"],
          [CODING_STEPS[2]!, "completed"],
          [CODING_STEPS[3]!, "in_progress"],
        ]),
      ],
    },
    {
      text:
        "Fixed the three problems the reviewer and I agreed on:\n\n" +
        '1. **Words split on single spaces only** (`src/index.js`): `"Hello,\\nhello!"` was one word. Words are now runs ' +
        "of letters, digits and apostrophes (`/[\\p{L}\\p{N}']+/gu`), so punctuation, tabs and line breaks separate them.\n" +
        '2. **Empty text and double spaces counted `""` as a word**: `match(…) ?? []` yields no words for blank text.\n' +
        "3. **Run directly from a path with spaces** did nothing: the check now compares with `pathToFileURL(process.argv[1])`.\n\n" +
        "Two tests are new in `src/index.test.js` (blank text; double spaces and apostrophes).\n\n" +
        "This recorded demo stops before running commands: run `npm test` in the terminal, or ask me to with a model of your own.",
    },
  ],
  subagent: [
    { toolCalls: [read("/src/index.js"), read("/src/index.test.js")] },
    {
      text:
        '1. **Bug: words split on single spaces only.** `text.toLowerCase().split(" ")` (line 6) keeps punctuation and ' +
        'line breaks: `countWords("Hello,\\nhello!")` returns `Map { "hello,\\nhello!" => 1 }`, so the test ' +
        '"ignores punctuation and line breaks" fails.\n' +
        '2. **Bug: the empty string counts as a word.** `countWords("")` returns `Map { "" => 1 }`, and `"a  b"` (two ' +
        'spaces) counts `""` once.\n' +
        "3. **Fragile entry check.** ``import.meta.url === `file://${process.argv[1]}` `` (line 12) is false for paths " +
        "with spaces (the URL encodes them as `%20`), so `node src/index.js` prints nothing there; use `pathToFileURL`.\n\n" +
        "Untested: blank input, runs of spaces, apostrophes (`don't`).",
    },
  ],
};

// ---- Data cleaner: totals by region and by month, in the offline shell ----

const LOOK =
  "head -5 /data/sales.csv; wc -l /data/sales.csv; awk -F, '{ print NF }' /data/sales.csv | sort | uniq -c; " +
  "cut -d, -f1 /data/sales.csv | sed 's/[0-9]/9/g' | sort | uniq -c; cut -d, -f2 /data/sales.csv | sort | uniq -c";

const TOTALS =
  'sed -E \'s/"\\$?([0-9]+),([0-9]{3})/\\1\\2/; s/"//g\' /data/sales.csv | awk -F, \'NR > 1 && $1 != "" && !seen[$0]++ { ' +
  'r = tolower($2); gsub(/^ +| +$/, "", r); if (r == "n.") r = "north"; r = toupper(substr(r, 1, 1)) substr(r, 2); ' +
  'a = $5; gsub(/[$]/, "", a); if ($1 ~ /\\//) { split($1, p, "/"); m = p[3] "-" p[1] } else m = substr($1, 1, 7); ' +
  "byRegion[r] += a; byMonth[m] += a; rows++ } END { " +
  'for (k in byRegion) printf "region\\t%s\\t%.2f\\n", k, byRegion[k]; for (k in byMonth) printf "month\\t%s\\t%.2f\\n", k, byMonth[k]; ' +
  'printf "rows\\t%d\\n", rows }\' | sort';

const DATA_STEPS = [
  "Look at the file (fields, dates, regions)",
  "Clean in the pipeline: duplicates, blank rows, regions, amounts, dates",
  "Total by region and by month",
  "Report",
];

const data: DemoScript = {
  agent: "data",
  prompt: "Total the sales in /data/sales.csv by region and by month.",
  title: "Total the sales by region and by month",
  approve: true,
  main: [
    {
      text: "I'll follow the csv-cleaning skill: look first, clean in the pipeline (the original stays as it is), then total.",
      toolCalls: [
        todos([
          [DATA_STEPS[0]!, "in_progress"],
          [DATA_STEPS[1]!, "pending"],
          [DATA_STEPS[2]!, "pending"],
          [DATA_STEPS[3]!, "pending"],
        ]),
      ],
    },
    { toolCalls: [read("/agent-skills/csv-cleaning/SKILL.md"), { name: "execute", args: { command: LOOK } }] },
    {
      text:
        "What needs cleaning before any total: the first two rows are the same sale, one row is blank (`,,,,`), one amount " +
        'is quoted with a thousands separator (`"$1,050.00"`, hence the line with 6 fields), amounts come with and ' +
        "without `$`, regions are spelled several ways (`south`, ` East `, `east`, `N.`), and one date is month-first " +
        "(`01/07/2024`). I'll fold all of that into one pipeline and total:",
      toolCalls: [
        todos([
          [DATA_STEPS[0]!, "completed"],
          [DATA_STEPS[1]!, "in_progress"],
          [DATA_STEPS[2]!, "in_progress"],
          [DATA_STEPS[3]!, "pending"],
        ]),
        { name: "execute", args: { command: TOTALS } },
      ],
    },
    {
      text:
        "Sales in `/data/sales.csv`, after cleaning (10 sales):\n\n" +
        "| Region | Sales |\n|---|---:|\n| East | $784.00 |\n| North | $745.50 |\n| South | $1,596.00 |\n| West | $285.50 |\n" +
        "| **Total** | **$3,411.00** |\n\n" +
        "| Month | Sales |\n|---|---:|\n| 2024-01 | $1,299.50 |\n| 2024-02 | $1,644.00 |\n| 2024-03 | $467.50 |\n" +
        "| **Total** | **$3,411.00** |\n\n" +
        "What I changed on the way (in the pipeline only; `/data/sales.csv` is unchanged):\n\n" +
        "- removed 1 duplicate row (2024-01-05, North, Widget, $120.00) and 1 blank row;\n" +
        "- folded 4 region spellings (`south`, ` East `, `east`, `N.`) into South, East, North;\n" +
        '- read amounts as numbers (`$120.00` → 120.00, `"$1,050.00"` → 1050.00);\n' +
        "- read `01/07/2024` as 7 January 2024, month first. **Is that right?** If it is 1 July, $1,050.00 moves from " +
        "January to a July of its own.",
    },
  ],
};

// ---- Research assistant: compare three notes, draft a report, the critic checks it ----

const DRAFT = [
  "# RAG or the whole manual? The notes agree on the trade-off, not on the numbers",
  "",
  "The three notes agree that retrieval is cheaper and that putting the whole manual in the prompt answers questions",
  "needing two sections better; they disagree on what it costs and on how much that gap matters. Confidence: moderate,",
  "since only our own evaluation says how it measured [3].",
  "",
  "## Findings",
  "",
  "**Cost.** Retrieval sends about 4,000 input tokens per question, the whole manual about 120,000 [1]. Cached input",
  "tokens cost a tenth of the normal price [2]. Our evaluation did not measure cost [3].",
  "",
  "**Questions that need two sections.** Retrieval answers them from one section only [1]: 52% right against 78% in",
  "the vendor's test [2], 56% against 80% on our 25 such questions [3].",
  "",
  "**Overall accuracy.** On 200 real questions, retrieval was right 81% of the time, the whole manual 84% [3].",
  "",
  "**Speed.** Retrieval's first token came after 0.9 s, the whole manual's after 3.1 s [3].",
  "",
  "## Where the sources disagree",
  "",
  "- **Cost:** the wiki counts tokens without caching [1]; the vendor counts them with it [2]. Neither gives a price per question.",
  "- **The size of the gap:** 26 percentage points in the vendor's test [2], 24 in ours [3]; the vendor does not say",
  "  how many questions it asked or whose documents it used [2].",
  "- **What follows:** the wiki keeps retrieval and calls the gap a known weakness [1]; the vendor drops retrieval for it [2].",
  "",
  "## Open questions",
  "",
  "- What does a question cost with the whole manual and caching, on our traffic?",
  "- Would retrieving more than 8 passages close the gap?",
  "",
  "## Sources",
  "",
  "1. `/notes/wiki-rag-decision.md:3-9`",
  "2. `/notes/vendor-long-context.md:3-7`",
  "3. `/notes/eval-log.md:3-7`",
  "",
].join("\n");
const RESEARCH_STEPS = [
  "Read the three notes and the report skill",
  "Draft /report.md",
  "Have the critic check the draft",
  "Fix what holds up",
];

const research: DemoScript = {
  agent: "research",
  prompt: "Compare the three notes in /notes and write a one-page report on where they disagree.",
  title: "Where the three notes disagree",
  main: [
    {
      text: "The question: where do the three notes in /notes disagree? Plan:",
      toolCalls: [
        todos([
          [RESEARCH_STEPS[0]!, "in_progress"],
          [RESEARCH_STEPS[1]!, "pending"],
          [RESEARCH_STEPS[2]!, "pending"],
          [RESEARCH_STEPS[3]!, "pending"],
        ]),
      ],
    },
    {
      toolCalls: [
        read("/notes/wiki-rag-decision.md"),
        read("/notes/vendor-long-context.md"),
        read("/notes/eval-log.md"),
        read("/agent-skills/report/SKILL.md"),
      ],
    },
    {
      text:
        "All three weigh retrieval (RAG) against putting the whole manual in the prompt. They agree on the trade-off " +
        "and disagree on cost and on how much the multi-section gap matters. Drafting the report:",
      toolCalls: [{ name: "write_file", args: { file_path: "/report.md", content: DRAFT } }],
    },
    {
      toolCalls: [
        {
          name: "task",
          args: {
            subagent_type: "critic",
            description:
              "Review the draft report at /report.md against its sources in /notes " +
              "(wiki-rag-decision.md, vendor-long-context.md, eval-log.md).",
          },
        },
      ],
    },
    {
      text: "The critic is right on both points. Fixing the question count:",
      toolCalls: [edit("/report.md", "On 200 real questions", "On 120 real questions")],
    },
    {
      text: "and saying the speed figures were measured with caching on:",
      toolCalls: [
        edit(
          "/report.md",
          "the whole manual's after 3.1 s [3].",
          "the whole manual's after 3.1 s, with prompt caching on [3], so caching does not make the whole manual as fast.",
        ),
      ],
    },
    {
      toolCalls: [
        todos([
          [RESEARCH_STEPS[0]!, "completed"],
          [RESEARCH_STEPS[1]!, "completed"],
          [RESEARCH_STEPS[2]!, "completed"],
          [RESEARCH_STEPS[3]!, "completed"],
        ]),
      ],
    },
    {
      text:
        "The report is in **/report.md**. In short, the notes agree that retrieval is cheaper and weaker on questions " +
        "that need two sections; they disagree on:\n\n" +
        "- **Cost**: the wiki counts ~4,000 against ~120,000 input tokens per question, without caching; the vendor says " +
        "caching cuts the repeated manual to a tenth of the price; our evaluation did not measure cost.\n" +
        "- **The size of the gap**: 26 points in the vendor's test (questions and documents unknown), 24 in ours (25 questions).\n" +
        "- **What follows**: the wiki keeps retrieval despite the gap; the vendor drops it.\n\n" +
        "The critic caught a wrong number in my draft (200 questions; the log says 120) and a missing caveat (the speed " +
        "was measured with caching on); both are fixed. Open question: the cost per question with caching, on our traffic.",
    },
  ],
  subagent: [
    {
      toolCalls: [
        read("/report.md"),
        read("/notes/eval-log.md"),
        read("/notes/vendor-long-context.md"),
        read("/notes/wiki-rag-decision.md"),
      ],
    },
    {
      text:
        "1. **Unsupported number.** The report says “On 200 real questions” (Findings, Overall accuracy); " +
        "`/notes/eval-log.md:3` says “120 real questions from the support queue”.\n" +
        "2. **Missing caveat.** The Speed finding gives 0.9 s against 3.1 s but drops “(with caching on)” from " +
        "`/notes/eval-log.md:6`: caching is what the cost disagreement turns on, so a reader needs it there.\n\n" +
        "The other citations say what the report says.",
    },
  ],
};

/** Every demo the site's agents carry, by folder. */
export const DEMO_SCRIPTS: readonly DemoScript[] = [coding, data, research];
