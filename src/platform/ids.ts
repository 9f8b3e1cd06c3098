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

/**
 * Prefixes of the global ids of objects identified by a pair of ids: a membership (organization, user), a team
 * membership (team, user) and the same membership seen from the member (user, team), a review request (change request, user), a page or a file of one revision (revision, page
 * or file). The child's own id is the same under every parent, so alone it would make one normalized-cache entry of a
 * person's memberships, or of a page in every revision.
 */
const pairIdPrefixes = {
  Member: "mbr",
  OrganizationTeamMember: "tmbr",
  MemberTeam: "mtm",
  ChangeRequestRequestedReviewer: "crrq",
  RevisionPage: "rpg",
  RevisionFile: "rfl",
} as const;

export type PairIdType = keyof typeof pairIdPrefixes;

/** Every type a global id can name. */
type NodeIdType = IdType | PairIdType;

/** Separates the parent's id from the child's in a pair id: not a character of generated ids (`newId`). */
const pairSeparator = ":";

/** The global id of the child of one parent (`mbr_<organizationId>:<userId>`). */
export function pairIdOf(type: PairIdType, parentId: string, childId: string): string {
  return `${pairIdPrefixes[type]}_${parentId}${pairSeparator}${childId}`;
}

/** The parent's and the child's ids in a pair id of this type; undefined for any other id. */
function parsePairId(type: PairIdType, id: string): { parentId: string; childId: string } | undefined {
  const prefix = `${pairIdPrefixes[type]}_`;
  if (!id.startsWith(prefix)) return undefined;
  const separator = id.indexOf(pairSeparator, prefix.length);
  if (separator <= prefix.length || separator === id.length - 1) return undefined;
  return { parentId: id.slice(prefix.length, separator), childId: id.slice(separator + 1) };
}

/** The pair ids of this type among `ids`, each with its parent's and child's ids (for `node`/`nodes` loads). */
export function parsePairIds(type: PairIdType, ids: readonly string[]) {
  return ids.flatMap((id) => {
    const pair = parsePairId(type, id);
    return pair ? [{ id, ...pair }] : [];
  });
}

/** A node's global id: its id as is, since ids carry their type prefix already (the id REST uses). */
export const globalIdOf = (id: unknown): string => String(id);

/**
 * The GraphQL type of every id type that implements `Node` (its name where the two differ). Page and file ids are
 * unique only within a revision: their nodes are the pair-id types `RevisionPage` and `RevisionFile`.
 */
export const nodeTypeNames: ReadonlyMap<NodeIdType, string> = new Map<NodeIdType, string>([
  ["Organization", "Organization"],
  ["User", "User"],
  ["Team", "Team"],
  ["ApiToken", "APIToken"],
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
  ["Member", "Member"],
  ["OrganizationTeamMember", "OrganizationTeamMember"],
  ["MemberTeam", "MemberTeam"],
  ["ChangeRequestRequestedReviewer", "ChangeRequestRequestedReviewer"],
  ["RevisionPage", "RevisionPage"],
  ["RevisionFile", "RevisionFile"],
]);

const typeByPrefix = new Map<string, NodeIdType>(
  Object.entries({ ...idPrefixes, ...pairIdPrefixes }).map(([type, prefix]) => [prefix, type as NodeIdType]),
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
export function typeOfId(id: string): NodeIdType | undefined {
  const separator = id.indexOf("_");
  return separator > 0 ? typeByPrefix.get(id.slice(0, separator)) : undefined;
}
