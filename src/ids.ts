import { randomBytes } from "node:crypto";

/** Id prefix of every resource type; the relay plugin maps prefix <-> GraphQL type with it. */
const idPrefixes = {
  Organization: "org",
  User: "user",
  Team: "team",
  ApiToken: "tok",
  LinkInvite: "inv",
  Collection: "col",
  Space: "space",
  SpacePermission: "perm",
  Revision: "rev",
  Page: "page",
  PageVersion: "pv",
  File: "file",
  ChangeRequest: "cr",
  ChangeRequestReview: "crr",
  ContentExport: "exp",
  Comment: "cmt",
  CommentReply: "cmtr",
  Site: "site",
  SiteSection: "sitesc",
  SiteSectionGroup: "sitesg",
  SiteSpace: "sitesp",
  ShareLink: "shl",
  Job: "job",
  Translation: "trn",
  OpenAPISpec: "oas",
  OpenAPISpecVersion: "oasv",
  SamlProvider: "saml",
} as const;

export type IdType = keyof typeof idPrefixes;

/** A node's global id: its id as is, since ids carry their type prefix already (the id REST uses). */
export const globalIdOf = (id: unknown): string => String(id);

/**
 * The GraphQL type of every id type that implements `Node` (its name where the two differ). Pages, page versions
 * and files are not nodes: their ids are unique only within a revision (see the README, "Global ids").
 */
export const nodeTypeNames: ReadonlyMap<IdType, string> = new Map<IdType, string>([
  ["Organization", "Organization"],
  ["User", "User"],
  ["Team", "Team"],
  ["ApiToken", "ApiToken"],
  ["LinkInvite", "LinkInvite"],
  ["Space", "Space"],
  ["Collection", "Collection"],
  ["Revision", "Revision"],
  ["ChangeRequest", "ChangeRequest"],
  ["ChangeRequestReview", "ChangeRequestReview"],
  ["Comment", "Comment"],
  ["CommentReply", "CommentReply"],
  ["Site", "Site"],
  ["SiteSection", "SiteSection"],
  ["SiteSectionGroup", "SiteSectionGroup"],
  ["SiteSpace", "SiteSpace"],
  ["ShareLink", "ShareLink"],
  ["Translation", "Translation"],
  ["OpenAPISpec", "OpenAPISpec"],
  ["OpenAPISpecVersion", "OpenAPISpecVersion"],
  ["SamlProvider", "SAMLProvider"],
]);

const typeByPrefix = new Map<string, IdType>(
  Object.entries(idPrefixes).map(([type, prefix]) => [prefix, type as IdType]),
);

const alphabet = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

export function randomBase62(length: number): string {
  const bytes = randomBytes(length * 2);
  let out = "";
  for (let i = 0; out.length < length && i < bytes.length; i++) {
    const byte = bytes[i] as number;
    // 248 = 4 * 62: rejecting larger bytes keeps every character equally likely.
    if (byte < 248) out += alphabet[byte % 62];
  }
  return out.length === length ? out : out + randomBase62(length - out.length);
}

/** A new id: `<prefix>_` then random characters. */
export function newId(type: IdType): string {
  return `${idPrefixes[type]}_${randomBase62(20)}`;
}

/** The type an id belongs to, from its prefix; undefined for anything that is not one of our ids. */
export function typeOfId(id: string): IdType | undefined {
  const separator = id.indexOf("_");
  return separator > 0 ? typeByPrefix.get(id.slice(0, separator)) : undefined;
}
