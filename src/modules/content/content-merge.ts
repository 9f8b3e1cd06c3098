import { diff3Merge } from "node-diff3";
import { type ContentState, childrenByParent, isDescendant, type PageState, writeOrder } from "./content-state.ts";

export interface MergeConflict {
  /** The page (or file) id; "variables" for space variables. */
  id: string;
  title: string;
  reason: string;
}

const pageFields = [
  "type",
  "title",
  "emoji",
  "slug",
  "description",
  "layout",
  "cover",
  "hidden",
  "noIndex",
  "noRobotsIndex",
  "variables",
  "href",
  "computed",
  "computedSeed",
  "parentId",
] as const satisfies readonly (keyof PageState)[];

const same = (a: unknown, b: unknown) => a === b || JSON.stringify(a) === JSON.stringify(b);

/** The usual three-way rule for one value: whichever side changed it wins; both changing it differently conflicts. */
function mergeValue<T>(base: T, ours: T, theirs: T): { value: T } | { conflict: true } {
  if (same(ours, theirs) || same(theirs, base)) return { value: ours };
  if (same(ours, base)) return { value: theirs };
  return { conflict: true };
}

/** Line-wise three-way merge of two markdown texts; null when both sides changed the same lines differently. */
function mergeMarkdown(base: string, ours: string, theirs: string): string | null {
  if (ours === theirs || theirs === base) return ours;
  if (ours === base) return theirs;
  const blocks = diff3Merge(ours.split("\n"), base.split("\n"), theirs.split("\n"), { excludeFalseConflicts: true });
  const lines: string[] = [];
  for (const block of blocks) {
    if (block.conflict) return null;
    lines.push(...(block.ok ?? []));
  }
  return lines.join("\n");
}

/** Same stored content and place in the tree; the order among siblings is not content. */
function unchangedPage(a: PageState, b: PageState) {
  return a.versionId !== null && a.versionId === b.versionId && a.parentId === b.parentId;
}

function identicalPage(a: PageState, b: PageState) {
  return unchangedPage(a, b) && a.position === b.position;
}

function mergePage(base: PageState, ours: PageState, theirs: PageState): PageState | string {
  const merged: PageState = { ...ours };
  const conflicting: string[] = [];
  for (const field of pageFields) {
    const result = mergeValue(base[field], ours[field], theirs[field]);
    if ("conflict" in result) conflicting.push(field === "parentId" ? "parent" : field);
    else (merged as unknown as Record<string, unknown>)[field] = result.value;
  }
  const markdown = mergeMarkdown(base.markdown, ours.markdown, theirs.markdown);
  if (markdown === null) conflicting.push("markdown");
  else merged.markdown = markdown;
  if (conflicting.length > 0) return `changed on both sides: ${conflicting.join(", ")}`;
  // Order is not content: when both sides moved the page, the change request's place wins.
  merged.position = theirs.position !== base.position ? theirs.position : ours.position;
  const contentOf = (page: PageState) => [...pageFields.map((field) => page[field]), page.markdown];
  if (same(contentOf(merged), contentOf(ours))) merged.versionId = ours.versionId;
  else if (same(contentOf(merged), contentOf(theirs))) merged.versionId = theirs.versionId;
  else {
    merged.versionId = null;
    merged.updatedAt = ours.updatedAt > theirs.updatedAt ? ours.updatedAt : theirs.updatedAt;
  }
  return merged;
}

/**
 * The pages a merge compares line by line: changed on both sides, to different versions. Only their markdown is
 * needed; `mergeContent` decides the others by version ids and places in the tree (two sides holding the same
 * version merge to it whatever its body).
 */
export function pagesToCompare(base: ContentState, ours: ContentState, theirs: ContentState): string[] {
  return [...base.pages.values()].flatMap((b) => {
    const o = ours.pages.get(b.id);
    const t = theirs.pages.get(b.id);
    return o && t && !identicalPage(o, b) && !identicalPage(t, b) && o.versionId !== t.versionId ? [b.id] : [];
  });
}

function mergeEntries<T extends { id: string }>(
  base: Map<string, T>,
  ours: Map<string, T>,
  theirs: Map<string, T>,
  unchanged: (a: T, b: T) => boolean,
  identical: (a: T, b: T) => boolean,
  mergeBoth: (base: T, ours: T, theirs: T) => T | string,
  describe: (entry: T) => string,
  conflicts: MergeConflict[],
): Map<string, T> {
  const result = new Map<string, T>();
  for (const id of new Set([...base.keys(), ...ours.keys(), ...theirs.keys()])) {
    const b = base.get(id);
    const o = ours.get(id);
    const t = theirs.get(id);
    if (!b) {
      // Added on one side (ids are random, so never on both).
      const added = o ?? t;
      if (added) result.set(id, added);
      continue;
    }
    if (!o && !t) continue;
    if (!o || !t) {
      const kept = (o ?? t) as T;
      if (unchanged(kept, b)) continue;
      conflicts.push({ id, title: describe(kept), reason: "deleted on one side and changed on the other" });
      continue;
    }
    if (identical(o, b)) result.set(id, t);
    else if (identical(t, b)) result.set(id, o);
    else {
      const merged = mergeBoth(b, o, t);
      if (typeof merged === "string") conflicts.push({ id, title: describe(o), reason: merged });
      else result.set(id, merged);
    }
  }
  return result;
}

/**
 * Three-way merge of `theirs` into `ours` against their common ancestor `base`: changes to different pages and
 * files combine, the same page changed on both sides merges field by field and line by line, and whatever cannot
 * be combined is listed in `conflicts` (the caller refuses the merge then).
 */
export function mergeContent(
  base: ContentState,
  ours: ContentState,
  theirs: ContentState,
): { state: ContentState; conflicts: MergeConflict[] } {
  const conflicts: MergeConflict[] = [];
  const pages = mergeEntries(
    base.pages,
    ours.pages,
    theirs.pages,
    unchangedPage,
    identicalPage,
    mergePage,
    (page) => page.title,
    conflicts,
  );
  const files = mergeEntries(
    base.files,
    ours.files,
    theirs.files,
    same,
    same,
    () => "changed on both sides",
    (file) => file.name,
    conflicts,
  );
  const variables: Record<string, unknown> = {};
  for (const key of new Set([
    ...Object.keys(base.variables),
    ...Object.keys(ours.variables),
    ...Object.keys(theirs.variables),
  ])) {
    const result = mergeValue(base.variables[key], ours.variables[key], theirs.variables[key]);
    if ("conflict" in result) conflicts.push({ id: "variables", title: key, reason: "variable changed on both sides" });
    else if (result.value !== undefined) variables[key] = result.value;
  }
  const state: ContentState = { pages, files, variables };
  for (const page of pages.values()) {
    if (page.parentId && !pages.has(page.parentId)) {
      conflicts.push({ id: page.id, title: page.title, reason: "its parent page was deleted on the other side" });
    } else if (page.parentId && isDescendant(state, page.parentId, page.id)) {
      conflicts.push({ id: page.id, title: page.title, reason: "moved under its own subpage by the other side" });
      // Breaking the cycle keeps the tree walkable while the conflicts are reported.
      pages.set(page.id, { ...page, parentId: null });
    }
  }
  // Grouped once: reading each page's children from the whole tree would make a large tree's merge quadratic.
  const byParent = childrenByParent(state);
  for (const parentId of [null, ...pages.keys()]) {
    const children = byParent.get(parentId) ?? [];
    const seen = new Map<string, PageState>();
    for (const child of children) {
      const other = seen.get(child.slug);
      if (other) {
        conflicts.push({ id: child.id, title: child.title, reason: `same path as page ${other.id} (${other.title})` });
      }
      seen.set(child.slug, child);
    }
    writeOrder(
      state,
      children.map((child) => child.id),
    );
  }
  return { state, conflicts };
}
