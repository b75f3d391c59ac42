import assert from "node:assert/strict";
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, relative } from "node:path";
import { after, before, describe, it } from "node:test";
import { fileURLToPath } from "node:url";

// The docs hold together: every relative link in README.md, CHANGELOG.md and docs/*.md reaches a
// file, and its #anchor a heading of that file (as GitHub names headings); every .md file a source
// file names (a comment citing "docs/PROTOCOL.md, Settlement") is in the repository. A page moved
// or a heading renamed fails here, not in a newcomer's browser.

const root = join(dirname(fileURLToPath(import.meta.url)), "..");

/** The pages whose links are checked. */
function markdownPages(base: string): string[] {
  const docs = join(base, "docs");
  const pages = existsSync(docs)
    ? readdirSync(docs)
        .filter((name) => name.endsWith(".md"))
        .map((name) => join(docs, name))
    : [];
  return [join(base, "README.md"), join(base, "CHANGELOG.md"), ...pages].filter((p) =>
    existsSync(p),
  );
}

/** The source rooms whose citations of .md files are checked, and what is build output there. */
const SOURCE_ROOMS = [
  "contracts",
  "core",
  "web/src",
  "web/e2e",
  "scripts",
  "indexer",
  "test",
  "ignition",
];
const NOT_SOURCE = new Set(["node_modules", "generated", ".ponder", "dist", "deployments"]);
const SOURCE_FILE = /\.(ts|tsx|sol|cjs|mjs|js)$/;

function sourceFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return NOT_SOURCE.has(entry.name) ? [] : sourceFiles(path);
    return SOURCE_FILE.test(entry.name) ? [path] : [];
  });
}

/** Fenced blocks and code spans hold examples, not links: blank them, keeping the line count. */
function withoutCode(markdown: string): string {
  return markdown
    .replace(/^( {0,3})(```|~~~)[^\n]*\n[\s\S]*?^\1\2[^\n]*$/gm, (block) =>
      block.replace(/[^\n]/g, " "),
    )
    .replace(/`[^`\n]*`/g, (span) => " ".repeat(span.length));
}

/**
 * GitHub's anchor for a heading (as github-slugger makes it): the text as shown, lower-cased,
 * without punctuation other than "-" and "_", each space a "-"; a repeated heading gets "-1", "-2".
 */
export function headingAnchors(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  const text = markdown.replace(/^( {0,3})(```|~~~)[^\n]*\n[\s\S]*?^\1\2[^\n]*$/gm, "");
  for (const [, heading] of text.matchAll(/^ {0,3}#{1,6}[ \t]+(.+?)[ \t#]*$/gm)) {
    const shown = heading
      .replace(/!?\[([^\]]*)\]\([^)]*\)/g, "$1")
      .replace(/<[^>]+>/g, "")
      .replace(/[`*]/g, "");
    const slug = shown
      .toLowerCase()
      .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, "")
      .replace(/ /g, "-");
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    anchors.add(count === 0 ? slug : `${slug}-${count}`);
  }
  return anchors;
}

interface Link {
  page: string;
  line: number;
  target: string;
}

/** Inline links and images, reference definitions, and HTML src/href. */
export function linksOf(page: string, markdown: string): Link[] {
  const text = withoutCode(markdown);
  const links: Link[] = [];
  const patterns = [
    /!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g,
    /^ {0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s|$)/gm,
    /\b(?:src|href)\s*=\s*"([^"]+)"/g,
  ];
  for (const pattern of patterns) {
    for (const match of text.matchAll(pattern)) {
      const line = text.slice(0, match.index).split("\n").length;
      links.push({ page, line, target: match[1] });
    }
  }
  return links;
}

const anchorCache = new Map<string, Set<string>>();
function anchorsOf(file: string): Set<string> {
  let anchors = anchorCache.get(file);
  if (!anchors) {
    anchors = headingAnchors(readFileSync(file, "utf8"));
    anchorCache.set(file, anchors);
  }
  return anchors;
}

/** What is wrong with a link, or undefined when it reaches its file (and heading). */
export function brokenLink(link: Link, base: string): string | undefined {
  const { target } = link;
  if (/^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith("//")) return undefined;
  const [pathPart, anchor] = target.split("#", 2);
  const path = decodeURIComponent(pathPart);
  const file = path === "" ? link.page : join(dirname(link.page), path);
  const where = `${relative(base, link.page)}:${link.line} -> ${target}`;
  if (!file.startsWith(base)) return `${where}: leaves the repository`;
  if (!existsSync(file)) return `${where}: no such file`;
  if (anchor === undefined || anchor === "") return undefined;
  if (!file.endsWith(".md") || statSync(file).isDirectory()) return undefined;
  if (!anchorsOf(file).has(decodeURIComponent(anchor).toLowerCase())) {
    return `${where}: ${relative(base, file)} has no heading with the anchor #${anchor}`;
  }
  return undefined;
}

/**
 * Every .md file a source file names, and whether it is there. A path resolves from the citing
 * file's folder or from the repository's root; a bare name ("PROTOCOL.md") may also be a page of
 * docs/, where the project's pages live.
 */
export function brokenCitations(base: string, files: string[]): string[] {
  const broken: string[] = [];
  for (const file of files) {
    const lines = readFileSync(file, "utf8").split("\n");
    lines.forEach((text, i) => {
      for (const [cited] of text.matchAll(/[\w./-]*[\w-]\.md\b/g)) {
        const candidates = [join(dirname(file), cited), join(base, cited)];
        if (!cited.includes("/")) candidates.push(join(base, "docs", cited));
        if (!candidates.some((c) => existsSync(c))) {
          broken.push(
            `${relative(base, file)}:${i + 1} names ${cited}, which is not in the repository`,
          );
        }
      }
    });
  }
  return broken;
}

function allBrokenLinks(base: string): string[] {
  return markdownPages(base).flatMap((page) =>
    linksOf(page, readFileSync(page, "utf8"))
      .map((link) => brokenLink(link, base))
      .filter((problem): problem is string => problem !== undefined),
  );
}

describe("the docs' links", () => {
  it("checks the README, the changelog and every page of docs/", () => {
    const pages = markdownPages(root).map((p) => relative(root, p));
    for (const page of ["README.md", "CHANGELOG.md", "docs/RULES.md", "docs/ARCHITECTURE.md"]) {
      assert.ok(pages.includes(page), `${page} is among the pages checked`);
    }
  });

  it("every relative link reaches a file, and every #anchor a heading of it", () => {
    const links = markdownPages(root).flatMap((p) => linksOf(p, readFileSync(p, "utf8")));
    assert.ok(links.length > 50, `only ${links.length} links found: is the link reader broken?`);
    assert.deepEqual(allBrokenLinks(root), []);
  });

  it("the README shows the pictures the browser suite takes", () => {
    const readme = readFileSync(join(root, "README.md"), "utf8");
    for (const picture of ["docs/img/table-desktop.png", "docs/img/table-phone.png"]) {
      const shown = linksOf(join(root, "README.md"), readme).some((l) => l.target === picture);
      assert.ok(shown, `the README shows ${picture}`);
      assert.ok(existsSync(join(root, picture)), `${picture} is in the repository`);
    }
  });

  it("every `npm run` script the pages name is in package.json", () => {
    const { scripts } = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as {
      scripts: Record<string, string>;
    };
    const missing = markdownPages(root).flatMap((page) =>
      [...readFileSync(page, "utf8").matchAll(/npm run ([a-z][\w:-]*)(\*)?/g)]
        .filter(([, name, wildcard]) =>
          wildcard ? !Object.keys(scripts).some((s) => s.startsWith(name)) : !(name in scripts),
        )
        .map(([named]) => `${relative(root, page)}: ${named}`),
    );
    assert.deepEqual(missing, []);
  });

  it("every .md file a source file names is in the repository", () => {
    const files = SOURCE_ROOMS.flatMap((room) => sourceFiles(join(root, room)));
    assert.ok(files.length > 100, `only ${files.length} source files found`);
    assert.deepEqual(brokenCitations(root, files), []);
  });
});

describe("the link check finds what is broken", () => {
  // A small repository of its own: one page with good links (a file, a heading, a repeated
  // heading, a site, a link inside a code block) and broken ones (a missing file, a missing
  // heading, a link out of the repository); one source file naming pages that exist and one that
  // does not. Only the broken ones may be reported, each by what is wrong. The names are built,
  // so that this file itself cites no missing page.
  const page = (name: string) => name + ".md";
  let base = "";

  before(() => {
    base = mkdtempSync(join(tmpdir(), "dicehall-docs-"));
    mkdirSync(join(base, "docs"));
    mkdirSync(join(base, "core"));
    writeFileSync(
      join(base, "docs", page("RULES")),
      "# The rules\n\n## 0 · Yahtzee (classic), 13 boxes\n\n## Totals\n\n## Totals\n",
    );
    writeFileSync(
      join(base, page("README")),
      [
        `[rules](docs/${page("RULES")}) [joker](docs/${page("RULES")}#0--yahtzee-classic-13-boxes)`,
        `[second totals](docs/${page("RULES")}#totals-1) [site](https://example.com/x)`,
        "```",
        `[in a code block](docs/${page("GONE")})`,
        "```",
        `[moved](docs/${page("GONE")}) [renamed](docs/${page("RULES")}#scoring)`,
        `<img src="../${page("elsewhere")}">`,
      ].join("\n"),
    );
    writeFileSync(
      join(base, "core", "cites.ts"),
      `// see ${page("RULES")} and docs/${page("RULES")}, and docs/${page("DESIGN")}\n`,
    );
  });

  after(() => rmSync(base, { recursive: true, force: true }));

  it("reports a missing file, a missing heading and a link out, and nothing else", () => {
    const problems = allBrokenLinks(base).sort();
    assert.equal(problems.length, 3, problems.join("\n"));
    assert.match(problems[0], /^README\.md:6 -> docs\/GONE\.md: no such file$/);
    assert.match(problems[1], /^README\.md:6 -> docs\/RULES\.md#scoring: .* no heading/);
    assert.match(problems[2], /^README\.md:7 -> \.\.\/elsewhere\.md: leaves the repository$/);
  });

  it("reports a source file naming a page that is not there", () => {
    assert.deepEqual(brokenCitations(base, [join(base, "core", "cites.ts")]), [
      `core/cites.ts:1 names docs/${page("DESIGN")}, which is not in the repository`,
    ]);
  });
});
