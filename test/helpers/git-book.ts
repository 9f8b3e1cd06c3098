import { posix } from "node:path";
import { commitFiles } from "./git-repo.ts";

/**
 * A generated markdown book in the Git Sync layout (README.md, a nested SUMMARY.md, one file per page, assets in
 * .gitbook/assets/), described page by page and link by link so that tests can check imports, search and links
 * against what they know is there.
 */

interface BookPage {
  title: string;
  /** The page file, relative to the repository root. */
  path: string;
  /** The markdown after the `# title` line, as committed. */
  body: string;
  children: BookPage[];
}

/** A group of pages: a `## heading` of SUMMARY.md (no file of its own). */
interface BookGroup {
  title: string;
  pages: BookPage[];
}

type BookLinkKind = "page" | "asset" | "external" | "missing";

interface BookLink {
  /** Path of the page whose body holds the link. */
  from: string;
  /** The target exactly as written in the markdown. */
  href: string;
  kind: BookLinkKind;
  /** Repository path the href points at (page, asset or the missing file); the URL for external links. */
  target: string;
}

interface BookAsset {
  /** Relative to the repository root (`.gitbook/assets/<name>`). */
  path: string;
  /** The file's name in the space (its path inside the assets folder). */
  name: string;
  contentType: string;
  bytes: Buffer;
}

export interface GitBook {
  /** The first page (README.md). */
  readme: BookPage;
  /** The pages of SUMMARY.md before its first heading, the readme first. */
  pages: BookPage[];
  groups: BookGroup[];
  /** Every page, depth first in SUMMARY order. */
  allPages: BookPage[];
  assets: BookAsset[];
  links: BookLink[];
  /** Every file to commit: path -> content. */
  files: Record<string, string | Buffer>;
}

export interface BookOptions {
  /** Chapters (each a folder with a README.md and topic pages); default 5. */
  chapters?: number;
  /** Topic pages per chapter; default 6. Every third topic has two detail subpages. */
  topicsPerChapter?: number;
}

const words = ["alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel", "india", "juliet"];

/** A tiny PNG-like blob whose bytes differ per index (the contents are not decoded by anyone). */
function assetBytes(index: number): Buffer {
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.from(`asset-${index}`)]);
}

/** Generates a book deterministically: the same options give the same files. */
export function generateBook(options: BookOptions = {}): GitBook {
  const chapters = options.chapters ?? 5;
  const topics = options.topicsPerChapter ?? 6;
  const links: BookLink[] = [];
  const assets: BookAsset[] = [];
  const link = (from: string, href: string, kind: BookLinkKind) => {
    const target = kind === "external" ? href : posix.normalize(posix.join(posix.dirname(from), href));
    links.push({ from, href, kind, target });
    return href;
  };
  const page = (title: string, path: string, body: string, children: BookPage[] = []): BookPage => ({
    title,
    path,
    body,
    children,
  });

  const readmePath = "README.md";
  const chapterPages: BookPage[] = [];
  for (let c = 1; c <= chapters; c++) {
    const folder = `chapter-${c}`;
    const readme = `${folder}/README.md`;
    const asset: BookAsset = {
      path: `.gitbook/assets/diagram-${c}.png`,
      name: `diagram-${c}.png`,
      contentType: "image/png",
      bytes: assetBytes(c),
    };
    assets.push(asset);
    const topicPages: BookPage[] = [];
    for (let n = 1; n <= topics; n++) {
      const path = `${folder}/topic-${n}.md`;
      const word = words[(c * topics + n) % words.length] as string;
      const lines = [
        `Topic ${c}.${n} explains ${word} in depth.`,
        "",
        `Back to [the chapter](${link(path, "README.md", "page")}).`,
      ];
      if (n < topics) lines.push(`Next: [topic ${n + 1}](${link(path, `topic-${n + 1}.md`, "page")}).`);
      if (n === 1) lines.push(`See [the introduction](${link(path, "../README.md", "page")}).`);
      if (n % 4 === 0) lines.push(`A [page that was never written](${link(path, `missing-${n}.md`, "missing")}).`);
      if (n % 2 === 1) {
        lines.push(`Read [the ${word} site](${link(path, `https://example.com/${word}/${c}-${n}`, "external")}).`);
      }
      if (n === 2) lines.push("", `![Diagram ${c}](${link(path, `../${asset.path}`, "asset")})`);
      const details: BookPage[] = [];
      if (n % 3 === 0) {
        for (let d = 1; d <= 2; d++) {
          const detailPath = `${folder}/topic-${n}/detail-${d}.md`;
          details.push(
            page(
              `Detail ${c}.${n}.${d}`,
              detailPath,
              `Details of ${word}, part ${d}.\n\nUp to [topic ${n}](${link(detailPath, `../topic-${n}.md`, "page")}).\n`,
            ),
          );
        }
      }
      topicPages.push(page(`Topic ${c}.${n}: ${word}`, path, `${lines.join("\n")}\n`, details));
    }
    const first = topicPages[0] as BookPage;
    chapterPages.push(
      page(
        `Chapter ${c}`,
        readme,
        `Chapter ${c} covers ${topics} topics.\n\nStart with [${first.title}](${link(readme, "topic-1.md", "page")}).\n`,
        topicPages,
      ),
    );
  }
  const readme = page(
    "Introduction",
    readmePath,
    [
      "Welcome to the generated book.",
      "",
      ...chapterPages.map((chapter) => `* [${chapter.title}](${link(readmePath, chapter.path, "page")})`),
      "",
      `Questions? Visit [the forum](${link(readmePath, "https://example.com/forum", "external")}).`,
      "",
    ].join("\n"),
  );
  const glossary = page("Glossary", "appendix/glossary.md", `Terms: ${words.join(", ")}.\n`);
  const faq = page(
    "FAQ",
    "appendix/faq.md",
    `See the [glossary](${link("appendix/faq.md", "glossary.md", "page")}) and [old answers](${link("appendix/faq.md", "old-faq.md", "missing")}).\n`,
  );
  const pages = [readme, ...chapterPages];
  const groups: BookGroup[] = [{ title: "Appendix", pages: [glossary, faq] }];

  const summaryLines = ["# Table of contents", ""];
  const listPages = (list: BookPage[], depth: number) => {
    for (const entry of list) {
      summaryLines.push(`${"  ".repeat(depth)}* [${entry.title}](${entry.path})`);
      listPages(entry.children, depth + 1);
    }
  };
  listPages(pages, 0);
  for (const group of groups) {
    summaryLines.push("", `## ${group.title}`, "");
    listPages(group.pages, 0);
  }

  const allPages: BookPage[] = [];
  const flatten = (list: BookPage[]) => {
    for (const entry of list) {
      allPages.push(entry);
      flatten(entry.children);
    }
  };
  flatten(pages);
  for (const group of groups) flatten(group.pages);

  const files: Record<string, string | Buffer> = { "SUMMARY.md": `${summaryLines.join("\n")}\n` };
  for (const entry of allPages) files[entry.path] = `# ${entry.title}\n\n${entry.body}`;
  for (const asset of assets) files[asset.path] = asset.bytes;
  return { readme, pages, groups, allPages, assets, links, files };
}

/** Commits the book on `branch` of a bare repository (replacing what was there); returns the commit id. */
export function commitBook(bare: string, branch: string, book: GitBook, message = "Add the book"): string {
  return commitFiles(bare, branch, book.files, message, { replace: true });
}
