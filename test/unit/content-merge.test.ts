import { describe, expect, it } from "vitest";
import { mergeContent } from "../../src/modules/content/content-merge.ts";
import type { ContentState, FileState, PageState } from "../../src/modules/content/content-state.ts";

/* Three-way merges of content states: `theirs` (a change request) into `ours` (the space) against `base`. */

const created = new Date("2026-01-01T00:00:00.000Z");

function page(id: string, overrides: Partial<PageState> = {}): PageState {
  return {
    id,
    versionId: `version_${id}`,
    parentId: null,
    position: 0,
    type: "document",
    title: `Page ${id}`,
    emoji: null,
    slug: id,
    description: null,
    markdown: "",
    layout: null,
    cover: null,
    hidden: false,
    noIndex: false,
    noRobotsIndex: false,
    variables: {},
    href: null,
    computed: null,
    computedSeed: null,
    git: null,
    createdAt: created,
    updatedAt: created,
    ...overrides,
  };
}

/** A page as an edit leaves it: a new, not yet stored version. */
const edited = (base: PageState, changes: Partial<PageState>, at = "2026-01-02T00:00:00.000Z"): PageState => ({
  ...base,
  ...changes,
  versionId: null,
  updatedAt: new Date(at),
});

function file(id: string, overrides: Partial<FileState> = {}): FileState {
  return {
    id,
    name: `${id}.png`,
    contentType: "image/png",
    blobHash: `hash_${id}`,
    size: 1,
    width: null,
    height: null,
    ...overrides,
  };
}

function content(pages: PageState[], files: FileState[] = [], variables: Record<string, unknown> = {}): ContentState {
  return {
    pages: new Map(pages.map((p) => [p.id, p])),
    files: new Map(files.map((f) => [f.id, f])),
    variables,
  };
}

const markdown = ["# Title", "", "one", "two", "three", "four", "five"].join("\n");
const a = page("a", { markdown });
const b = page("b", { position: 1 });
const base = content([a, b], [file("f")], { product: "Docs" });

describe("mergeContent", () => {
  it("combines changes to different pages, files and variables", () => {
    const ours = content([edited(a, { title: "A, renamed" }), b], [file("f")], { product: "Docs", version: 2 });
    const theirs = content([a, edited(b, { markdown: "new body" }), page("c", { position: 2 })], [], {
      product: "Docs",
    });
    const { state, conflicts } = mergeContent(base, ours, theirs);
    expect(conflicts).toEqual([]);
    expect(state.pages.get("a")?.title).toBe("A, renamed");
    expect(state.pages.get("b")?.markdown).toBe("new body");
    expect([...state.pages.keys()].sort()).toEqual(["a", "b", "c"]);
    expect(state.files.size).toBe(0);
    expect(state.variables).toEqual({ product: "Docs", version: 2 });
  });

  it("takes the other side whole when only one side touched a page", () => {
    const theirsA = edited(a, { title: "Theirs" });
    const { state, conflicts } = mergeContent(
      base,
      content([a, b], [file("f")], { product: "Docs" }),
      content([theirsA, b], [file("f")], { product: "Docs" }),
    );
    expect(conflicts).toEqual([]);
    expect(state.pages.get("a")).toEqual(theirsA);
  });

  it("merges one page changed on both sides field by field and line by line", () => {
    const ours = edited(a, { title: "Ours", markdown: markdown.replace("one", "ONE") }, "2026-01-03T00:00:00.000Z");
    const theirs = edited(a, { emoji: "🚀", markdown: markdown.replace("five", "FIVE") });
    const { state, conflicts } = mergeContent(base, content([ours, b]), content([theirs, b]));
    expect(conflicts).toEqual([]);
    const merged = state.pages.get("a");
    expect(merged?.title).toBe("Ours");
    expect(merged?.emoji).toBe("🚀");
    expect(merged?.markdown).toBe(markdown.replace("one", "ONE").replace("five", "FIVE"));
    // A combination neither side stored is a new version, dated by the later edit.
    expect(merged?.versionId).toBeNull();
    expect(merged?.updatedAt).toEqual(new Date("2026-01-03T00:00:00.000Z"));
  });

  it("accepts the same change made on both sides, keeping our stored version", () => {
    const ours = { ...edited(a, { title: "Same" }), versionId: "version_ours" };
    const theirs = { ...edited(a, { title: "Same" }), versionId: "version_theirs" };
    const { state, conflicts } = mergeContent(base, content([ours, b]), content([theirs, b]));
    expect(conflicts).toEqual([]);
    expect(state.pages.get("a")?.title).toBe("Same");
    expect(state.pages.get("a")?.versionId).toBe("version_ours");
  });

  it("reports the fields and lines both sides changed differently", () => {
    const ours = edited(a, { title: "Ours", markdown: markdown.replace("three", "ours") });
    const theirs = edited(a, { title: "Theirs", markdown: markdown.replace("three", "theirs") });
    const { conflicts } = mergeContent(base, content([ours, b]), content([theirs, b]));
    expect(conflicts).toEqual([{ id: "a", title: "Ours", reason: "changed on both sides: title, markdown" }]);
  });

  it("deletes a page deleted on one side and left alone on the other, or deleted on both", () => {
    for (const [ours, theirs] of [
      [content([b]), base],
      [base, content([b])],
      [content([b]), content([b])],
    ] as const) {
      const { state, conflicts } = mergeContent(base, ours, theirs);
      expect(conflicts).toEqual([]);
      expect(state.pages.has("a")).toBe(false);
    }
  });

  it("refuses a page deleted on one side and changed on the other", () => {
    const { conflicts } = mergeContent(base, content([b]), content([edited(a, { title: "Changed" }), b]));
    expect(conflicts).toEqual([{ id: "a", title: "Changed", reason: "deleted on one side and changed on the other" }]);
  });

  it("lets moving a page among its siblings not count as changing it", () => {
    const ours = content([
      { ...a, position: 1 },
      { ...b, position: 0 },
    ]);
    const { state, conflicts } = mergeContent(base, ours, content([b]));
    expect(conflicts).toEqual([]);
    expect([...state.pages.keys()]).toEqual(["b"]);
  });

  it("refuses a page added under a parent the other side deleted", () => {
    const child = page("child", { parentId: "b" });
    const { conflicts } = mergeContent(base, content([a]), content([a, b, child]));
    expect(conflicts).toEqual([
      { id: "child", title: "Page child", reason: "its parent page was deleted on the other side" },
    ]);
  });

  it("refuses moves that would put a page under its own subpage", () => {
    const { state, conflicts } = mergeContent(
      base,
      content([{ ...a, parentId: "b" }, b]),
      content([a, { ...b, parentId: "a" }]),
    );
    expect(conflicts.map((conflict) => conflict.reason)).toContain("moved under its own subpage by the other side");
    // The cycle is broken so the state stays a tree.
    expect([...state.pages.values()].some((p) => p.parentId === null)).toBe(true);
  });

  it("refuses two siblings with the same path", () => {
    const { conflicts } = mergeContent(
      base,
      content([a, b, page("c", { slug: "intro", position: 2 })]),
      content([a, b, page("d", { slug: "intro", position: 2 })]),
    );
    expect(conflicts).toHaveLength(1);
    expect(conflicts[0]?.reason).toMatch(/^same path as page [cd] \(Page [cd]\)$/);
  });

  it("keeps a file changed on one side, and refuses one changed on both", () => {
    const ours = content([a, b], [file("f", { name: "ours.png" })], { product: "Docs" });
    expect(mergeContent(base, ours, base).state.files.get("f")?.name).toBe("ours.png");
    const theirs = content([a, b], [file("f", { name: "theirs.png" })], { product: "Docs" });
    expect(mergeContent(base, ours, theirs).conflicts).toEqual([
      { id: "f", title: "ours.png", reason: "changed on both sides" },
    ]);
  });

  it("refuses a variable set differently on both sides, and drops one deleted on one side", () => {
    const conflicting = mergeContent(
      base,
      content([a, b], [file("f")], { product: "Ours" }),
      content([a, b], [file("f")], { product: "Theirs" }),
    );
    expect(conflicting.conflicts).toEqual([
      { id: "variables", title: "product", reason: "variable changed on both sides" },
    ]);
    const deleted = mergeContent(base, content([a, b], [file("f")], {}), base);
    expect(deleted.conflicts).toEqual([]);
    expect(deleted.state.variables).toEqual({});
  });

  it("renumbers siblings so positions stay dense", () => {
    const { state } = mergeContent(
      base,
      content([a, b, page("c", { position: 2 })]),
      content([a, b, page("d", { position: 2 })]),
    );
    expect([...state.pages.values()].map((p) => p.position).sort()).toEqual([0, 1, 2, 3]);
  });
});
