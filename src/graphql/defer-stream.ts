import { type DocumentNode, Kind, visit } from "graphql";

/** Whether a document asks for `@defer` or `@stream`, per parsed document (yoga's parse cache reuses them). */
const incrementalDocuments = new WeakMap<DocumentNode, boolean>();

export function usesIncrementalDelivery(document: DocumentNode): boolean {
  let found = incrementalDocuments.get(document);
  if (found === undefined) {
    found = false;
    visit(document, {
      [Kind.DIRECTIVE]: (node) => {
        found ||= node.name.value === "defer" || node.name.value === "stream";
      },
    });
    incrementalDocuments.set(document, found);
  }
  return found;
}
