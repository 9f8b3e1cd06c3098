import type { MarkdownSection } from "../../lib/markdown/text.ts";
import { slugify, uniquePath } from "../../lib/slug.ts";

/** A page's section as search shows it: the heading's anchor (null before the first heading) and its title. */
export interface AnchoredSection {
  anchor: string | null;
  /** The heading's text; the page's title for the text before the first heading. */
  title: string;
  body: string;
}

/** A page's sections with their anchors, unique within the page (`setup`, `setup-2`...). */
export function anchoredSections(pageTitle: string, sections: readonly MarkdownSection[]): AnchoredSection[] {
  const anchors = new Set<string>();
  return sections.map((section) => {
    if (section.heading === null) return { anchor: null, title: pageTitle, body: section.text };
    const anchor = uniquePath(slugify(section.heading, "section"), anchors);
    anchors.add(anchor);
    return { anchor, title: section.heading, body: section.text };
  });
}

/** The `PageVersionSection` rows of a new version (its vector is computed by PostgreSQL). */
export function pageVersionSectionRows(versionId: string, pageTitle: string, sections: readonly MarkdownSection[]) {
  return anchoredSections(pageTitle, sections).map((section, ordinal) => ({ versionId, ordinal, ...section }));
}
