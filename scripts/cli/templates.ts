/**
 * The files `deeptab new <name>` writes: a site with one agent folder, a package.json depending on deeptab, the
 * GitHub Pages workflow and a README saying how to publish. Strings, not copied files: npm leaves `.gitignore`
 * out of a package, and the text is checked by the scaffold's test.
 */

/** A new site's files by relative path. `deeptab` is the dependency's spec (`^0.1.0`, or a tarball in a test). */
export function siteFiles(name: string, deeptab: string): Record<string, string> {
  return {
    "package.json": `${JSON.stringify(
      {
        name,
        private: true,
        type: "module",
        scripts: { build: "deeptab build", start: "deeptab build && deeptab serve" },
        dependencies: { deeptab },
      },
      null,
      2,
    )}\n`,
    ".gitignore": "node_modules/\ndist/\n",
    [`agents/${name}/AGENTS.md`]: agentsMd(name),
    [`agents/${name}/agent.yaml`]: agentYaml(name),
    "README.md": readme(name),
    ".github/workflows/pages.yml": PAGES_WORKFLOW,
  };
}

function agentsMd(name: string): string {
  return `# ${name}

You are ${name}, an assistant that works on the files in this workspace. Plan multi-step work with \`write_todos\`,
read before you write, and keep your answers short. Say when you are unsure, and never invent facts.
`;
}

function agentYaml(name: string): string {
  return `# Every field is optional; see deeptab's docs/agent-folders.md.
name: ${name}
description: A deeptab agent. Edit agents/${name}/AGENTS.md to give it a job.
suggestions:
  - Write a short note to /notes/hello.md saying what you can do.
  - List the files in the workspace and summarize them.
interrupt_on:
  delete: true
`;
}

function readme(name: string): string {
  return `# ${name}

An agent that runs entirely in the browser tab, built with [deeptab](https://www.npmjs.com/package/deeptab). Its
instructions are \`agents/${name}/AGENTS.md\`; \`agents/${name}/agent.yaml\` holds its name, description and
suggested prompts. Add more folders under \`agents/\` for more agents (subagents in \`agents/<name>/agents/*.md\`,
skills in \`agents/<name>/skills/<skill>/SKILL.md\`, starter files in \`agents/<name>/files/\`).

## Try it

\`\`\`sh
npm install
npm run build     # deeptab build: the app and your agents in dist/ (any problem in an agent folder fails it)
npx deeptab serve # http://127.0.0.1:4173/
\`\`\`

With several agents, \`DEEPTAB_DEFAULT_AGENT=<folder> npm run build\` picks the one the page opens on.

## Publish on GitHub Pages

1. Create a repository on GitHub and push this folder to its \`main\` branch (commit \`package-lock.json\` too).
2. In the repository: **Settings → Pages → Build and deployment → Source: GitHub Actions**.
3. Every push to \`main\` runs \`.github/workflows/pages.yml\`, which builds the site and publishes it at
   \`https://<user>.github.io/<repo>/\`. The app works under any sub-path, so no base path needs setting.

The site is static: the model runs in the visitor's tab or is called from it with the visitor's own key, which
never leaves their browser for anywhere but the provider they choose.
`;
}

const PAGES_WORKFLOW = `# Builds the site (deeptab's app and the agents under agents/) and publishes dist/ to GitHub Pages on every push
# to main. Settings → Pages → Source: "GitHub Actions". The site lives at https://<user>.github.io/<repo>/.
name: Deploy to GitHub Pages

on:
  push:
    branches: [main]
  workflow_dispatch:

permissions:
  contents: read
  pages: write
  id-token: write

concurrency:
  group: pages
  cancel-in-progress: false

jobs:
  build:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v4
      - uses: actions/setup-node@v4
        with:
          node-version: 20
      - run: npm install --no-audit --no-fund
      - run: npm run build
      - uses: actions/upload-pages-artifact@v3
        with:
          path: dist

  deploy:
    needs: build
    runs-on: ubuntu-latest
    environment:
      name: github-pages
      url: \${{ steps.deployment.outputs.page_url }}
    steps:
      - id: deployment
        uses: actions/deploy-pages@v4
`;
