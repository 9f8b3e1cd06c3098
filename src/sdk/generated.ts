/** Internal type. DO NOT USE DIRECTLY. */
type Exact<T extends { [key: string]: unknown }> = { [K in keyof T]: T[K] };
/** Internal type. DO NOT USE DIRECTLY. */
export type Incremental<T> = T | { [P in keyof T]?: P extends ' $fragmentName' | '__typename' ? T[P] : never };
import { type GraphQLClient, type RequestOptions } from 'graphql-request';
import type { DocumentNode } from 'graphql';
export type Maybe<T> = T | null;
export type InputMaybe<T> = Maybe<T>;
type GraphQLClientRequestHeaders = RequestOptions['requestHeaders'];
/** All built-in and custom scalars, mapped to their actual values */
export type Scalars = {
  ID: { input: string; output: string; }
  String: { input: string; output: string; }
  Boolean: { input: boolean; output: boolean; }
  Int: { input: number; output: number; }
  Float: { input: number; output: number; }
  /** ISO 8601 date-time string. */
  DateTime: { input: string; output: string; }
  /** Any JSON value (rich-text documents, merge rules, schemas). */
  JSON: { input: unknown; output: unknown; }
};

export type AddOrganizationMemberInput = {
  /** Used when no user has this email yet. */
  displayName?: InputMaybe<Scalars['String']['input']>;
  email: Scalars['String']['input'];
  role?: InputMaybe<Role>;
};

export type AddSectionGroupToSiteInput = {
  /** Icon name. 1..50 characters; may be null. */
  icon?: InputMaybe<Scalars['String']['input']>;
  /** Id of a root group to nest under (groups nest one level); omitted: the site root. Not empty; may be null. */
  parent?: InputMaybe<Scalars['ID']['input']>;
  /** Ids of sections to move into the group. At most 1000 items. */
  sections?: InputMaybe<Array<Scalars['ID']['input']>>;
  /** The group's title. 1..100 characters. */
  title: Scalars['String']['input'];
};

export type AddSectionToGroupInput = {
  sectionId: Scalars['String']['input'];
};

export type AddSectionToSiteInput = {
  /** Icon name, max 50. */
  icon?: InputMaybe<Scalars['String']['input']>;
  /** The space of the section's first site space. */
  spaceId: Scalars['String']['input'];
  /** 2..128; default: the space's title. */
  title?: InputMaybe<Scalars['String']['input']>;
};

export type AddSpaceToSiteInput = {
  /** Default: the site's default section, or the root for sites without one. */
  sectionId?: InputMaybe<Scalars['String']['input']>;
  spaceId: Scalars['String']['input'];
};

export type ApplyTemplateInput = {
  /** Apply to this change request's content instead of the space's. */
  changeRequestId?: InputMaybe<Scalars['String']['input']>;
  /** openapi-reference or file-page. */
  id: Scalars['String']['input'];
  params?: InputMaybe<SpaceTemplateParamsInput>;
};

export type ChangeRequestOrderBy =
  | 'createdAt'
  | 'updatedAt';

export type ChangeRequestStatus =
  | 'archived'
  | 'draft'
  | 'merged'
  | 'open';

/** Either markdown or a rich-text document. */
export type CommentBodyInput = {
  document?: InputMaybe<Scalars['JSON']['input']>;
  markdown?: InputMaybe<Scalars['String']['input']>;
};

export type CommentStatus =
  | 'open'
  | 'resolved';

export type CommentStatusFilter =
  | 'all'
  | 'open'
  | 'resolved';

export type CommentTableCellInput = {
  definition: Scalars['String']['input'];
  record: Scalars['String']['input'];
};

/** One change: insert a page (`page`) or a file (`file`), update a page (`pageId` and `page`), delete a page (`pageId`, with its subpages) or a file (`fileId`). */
export type ContentChangeInput = {
  file?: InputMaybe<FileUploadInput>;
  fileId?: InputMaybe<Scalars['String']['input']>;
  page?: InputMaybe<PageChangeInput>;
  pageId?: InputMaybe<Scalars['String']['input']>;
  /** insert, update or delete. */
  type: Scalars['String']['input'];
};

export type ContentChangesInput = {
  /** 1..50 changes. */
  changes: Array<ContentChangeInput>;
};

export type CreateApiTokenInput = {
  label?: InputMaybe<Scalars['String']['input']>;
};

export type CreateChangeRequestInput = {
  /** At most 100 characters. */
  subject?: InputMaybe<Scalars['String']['input']>;
  /** { id, params }: a content template to start from. */
  template?: InputMaybe<Scalars['JSON']['input']>;
};

export type CreateCollectionInput = {
  /** Parent collection id. */
  parent?: InputMaybe<Scalars['ID']['input']>;
  /** At most 50 characters. */
  title?: InputMaybe<Scalars['String']['input']>;
};

export type CreateOpenApiSpecInput = {
  /** 1..100 letters and digits in groups joined by single hyphens. */
  slug: Scalars['String']['input'];
  source: OpenApiSpecSourceInput;
};

export type CreateOrUpdateOpenApiSpecInput = {
  source: OpenApiSpecSourceInput;
};

export type CreateOrganizationInput = {
  emailDomains?: InputMaybe<Array<Scalars['String']['input']>>;
  title: Scalars['String']['input'];
  type?: InputMaybe<Scalars['String']['input']>;
  useCase?: InputMaybe<Scalars['String']['input']>;
};

export type CreateSamlProviderInput = {
  /** The identity provider's signing certificate, PEM X.509 (max 10000). */
  certificate?: InputMaybe<Scalars['String']['input']>;
  /** Role of new SSO members; null makes them guests. */
  defaultRole?: InputMaybe<Role>;
  /** Id of a team of the organization that new SSO members join; null for none. */
  defaultTeam?: InputMaybe<Scalars['String']['input']>;
  /** The identity provider's entity id (max 1024). */
  entityID?: InputMaybe<Scalars['String']['input']>;
  /** 1..30 characters. */
  label: Scalars['String']['input'];
  /** The identity provider's login URL (http or https, max 2048). */
  ssoURL?: InputMaybe<Scalars['String']['input']>;
};

export type CreateSiteInput = {
  /** Ids of spaces to add to the site. */
  spaces?: InputMaybe<Array<Scalars['String']['input']>>;
  /** 2..128 characters. */
  title?: InputMaybe<Scalars['String']['input']>;
  /** basic (default), premium, ultimate, sponsored, legacy-basic, legacy-premium. */
  type?: InputMaybe<Scalars['String']['input']>;
  /** public (default), unlisted, share-link, visitor-auth. */
  visibility?: InputMaybe<Scalars['String']['input']>;
};

export type CreateSiteShareLinkInput = {
  /** 0..50 characters. */
  name: Scalars['String']['input'];
};

export type CreateSpaceInput = {
  editMode?: InputMaybe<SpaceEditMode>;
  emoji?: InputMaybe<Scalars['String']['input']>;
  /** Create an empty space (the only kind of content created). */
  empty?: InputMaybe<Scalars['Boolean']['input']>;
  /** A language code (en, fr, pt-br, ...). */
  language?: InputMaybe<Scalars['String']['input']>;
  /** Parent collection id. */
  parent?: InputMaybe<Scalars['ID']['input']>;
  /** At most 50 characters; default Untitled. */
  title?: InputMaybe<Scalars['String']['input']>;
};

export type CreateTeamInput = {
  /** Member (user) ids or emails. */
  members?: InputMaybe<Array<Scalars['String']['input']>>;
  title: Scalars['String']['input'];
};

export type CreateTranslationInput = {
  /** A rich-text document of guidance for the translator. */
  instructions?: InputMaybe<Scalars['JSON']['input']>;
  /** The language to translate into. */
  language: Scalars['String']['input'];
  source: TranslationSourceInput;
};

export type ExportToGitRepositoryInput = {
  commitMessage: Scalars['String']['input'];
  /** Apply even when older than the last operation, or over a moved branch. */
  force?: InputMaybe<Scalars['Boolean']['input']>;
  gitInfo?: InputMaybe<GitSyncInfoInput>;
  /** refs/heads/<branch>. */
  ref: Scalars['String']['input'];
  /** @deprecated Not used: every operation fetches what it needs. */
  repoCacheID?: InputMaybe<Scalars['String']['input']>;
  /** Prefix of commit URLs (revision git.url). */
  repoCommitURL?: InputMaybe<Scalars['String']['input']>;
  repoProjectDirectory?: InputMaybe<Scalars['String']['input']>;
  repoTreeURL?: InputMaybe<Scalars['String']['input']>;
  /** ISO 8601 time of the triggering event: older operations are skipped. */
  timestamp?: InputMaybe<Scalars['String']['input']>;
  /** Repository URL (http(s):// or file://); may carry user:password. */
  url: Scalars['String']['input'];
};

export type FileUploadInput = {
  /** The bytes, base64. */
  content: Scalars['String']['input'];
  contentType: Scalars['String']['input'];
  height?: InputMaybe<Scalars['Int']['input']>;
  name: Scalars['String']['input'];
  width?: InputMaybe<Scalars['Int']['input']>;
};

export type GitSyncInfoInput = {
  /** github or gitlab. */
  provider?: InputMaybe<Scalars['String']['input']>;
  /** The repository's tree URL. */
  url?: InputMaybe<Scalars['String']['input']>;
};

export type ImportGitRepositoryInput = {
  /** Apply even when older than the last operation, or over a moved branch. */
  force?: InputMaybe<Scalars['Boolean']['input']>;
  gitInfo?: InputMaybe<GitSyncInfoInput>;
  /** refs/heads/<branch>. */
  ref: Scalars['String']['input'];
  /** @deprecated Not used: every operation fetches what it needs. */
  repoCacheID?: InputMaybe<Scalars['String']['input']>;
  /** Prefix of commit URLs (revision git.url). */
  repoCommitURL?: InputMaybe<Scalars['String']['input']>;
  repoProjectDirectory?: InputMaybe<Scalars['String']['input']>;
  repoTreeURL?: InputMaybe<Scalars['String']['input']>;
  /** Make a revision without making it the space's content. */
  standalone?: InputMaybe<Scalars['Boolean']['input']>;
  /** ISO 8601 time of the triggering event: older operations are skipped. */
  timestamp?: InputMaybe<Scalars['String']['input']>;
  /** Repository URL (http(s):// or file://); may carry user:password. */
  url: Scalars['String']['input'];
};

export type InviteToSpaceInput = {
  /** Role to grant; null removes the grants of these users and teams. */
  role?: InputMaybe<Role>;
  /** Team ids of the space's organization. */
  teams?: InputMaybe<Array<Scalars['String']['input']>>;
  /** User ids (members of the space's organization). */
  users?: InputMaybe<Array<Scalars['String']['input']>>;
};

/** pending: waiting to run (or to be retried); running; done; failed: out of attempts. */
export type JobStatus =
  | 'done'
  | 'failed'
  | 'pending'
  | 'running';

export type LinkInviteInput = {
  /** Null invites guests. */
  role?: InputMaybe<Role>;
};

/** A role, or guest for members without one. */
export type MemberRoleFilter =
  | 'admin'
  | 'comment'
  | 'create'
  | 'edit'
  | 'guest'
  | 'read'
  | 'review';

export type MemberSort =
  | 'joinedAt'
  | 'lastSeenAt';

export type MoveSiteSectionGroupInput = {
  /** Omitted: to the end. */
  position?: InputMaybe<SiteSectionGroupMovePositionInput>;
};

export type MoveSiteSectionInput = {
  /** Omitted: to the end. */
  position?: InputMaybe<SiteSectionMovePositionInput>;
};

export type MoveSiteSpaceInput = {
  /** Omitted: to the end. */
  position?: InputMaybe<SiteSpaceMovePositionInput>;
};

export type MoveSpaceInput = {
  /** Parent collection id; null moves the space to the root. */
  parent?: InputMaybe<Scalars['ID']['input']>;
  /** Next to a sibling; by default at the end. */
  position?: InputMaybe<SpacePositionInput>;
};

export type OpenApiSpecProcessErrorCode =
  | 'FETCH_ERROR'
  | 'FETCH_TIMEOUT'
  | 'PARSE_ERROR';

export type OpenApiSpecProcessingState =
  | 'complete'
  | 'pending'
  | 'progress';

/** Exactly one of `url` (fetched by the server) or `text` (the document itself). */
export type OpenApiSpecSourceInput = {
  text?: InputMaybe<Scalars['String']['input']>;
  url?: InputMaybe<Scalars['String']['input']>;
};

/** private: members only; public: the versions' source URLs are readable without a token. */
export type OpenApiSpecVisibility =
  | 'private'
  | 'public';

/** Page fields; an update sets only the fields it names. */
export type PageChangeInput = {
  cover?: InputMaybe<Scalars['JSON']['input']>;
  description?: InputMaybe<Scalars['String']['input']>;
  emoji?: InputMaybe<Scalars['String']['input']>;
  hidden?: InputMaybe<Scalars['Boolean']['input']>;
  /** Link pages: the URL. */
  href?: InputMaybe<Scalars['String']['input']>;
  layout?: InputMaybe<Scalars['JSON']['input']>;
  /** The body (documents). */
  markdown?: InputMaybe<Scalars['String']['input']>;
  noIndex?: InputMaybe<Scalars['Boolean']['input']>;
  noRobotsIndex?: InputMaybe<Scalars['Boolean']['input']>;
  /** Parent page id; null: the root. */
  parent?: InputMaybe<Scalars['String']['input']>;
  /** Default: after the last sibling. */
  position?: InputMaybe<PagePositionInput>;
  /** Default: from the title; unique among its siblings. */
  slug?: InputMaybe<Scalars['String']['input']>;
  title?: InputMaybe<Scalars['String']['input']>;
  /** document (default), group or link. */
  type?: InputMaybe<Scalars['String']['input']>;
  variables?: InputMaybe<Scalars['JSON']['input']>;
};

export type PageFormat =
  | 'document'
  | 'markdown';

export type PagePositionInput = {
  after?: InputMaybe<Scalars['String']['input']>;
  /** A sibling page id. */
  before?: InputMaybe<Scalars['String']['input']>;
};

export type PostCommentInput = {
  body: CommentBodyInput;
  /** A node of that page. */
  node?: InputMaybe<Scalars['String']['input']>;
  /** A page of the revision the commenter sees. */
  page?: InputMaybe<Scalars['String']['input']>;
  tableCell?: InputMaybe<CommentTableCellInput>;
};

export type PostCommentReplyInput = {
  body: CommentBodyInput;
};

export type RequestReviewersInput = {
  description?: InputMaybe<Scalars['JSON']['input']>;
  subject?: InputMaybe<Scalars['String']['input']>;
  /** User ids (members of the organization). */
  users: Array<Scalars['String']['input']>;
};

/** Role of a member: admin > create > review > edit > comment > read. Null means a guest. */
export type Role =
  | 'admin'
  | 'comment'
  | 'create'
  | 'edit'
  | 'read'
  | 'review';

/** pending until entityID, ssoURL and certificate are all set. */
export type SamlProviderStatus =
  | 'active'
  | 'pending';

export type SiteAdaptiveContentInput = {
  enabled: Scalars['Boolean']['input'];
};

export type SiteSectionGroupMovePositionInput = {
  after?: InputMaybe<SiteSectionGroupPointerInput>;
  before?: InputMaybe<SiteSectionGroupPointerInput>;
};

export type SiteSectionGroupPointerInput = {
  id: Scalars['String']['input'];
  /** site-section or site-section-group. */
  type: Scalars['String']['input'];
};

export type SiteSectionMovePositionInput = {
  after?: InputMaybe<SiteSectionPointerInput>;
  before?: InputMaybe<SiteSectionPointerInput>;
};

export type SiteSectionPointerInput = {
  siteSection: Scalars['String']['input'];
  /** site-section */
  type: Scalars['String']['input'];
};

export type SiteSpaceMovePositionInput = {
  after?: InputMaybe<SiteSpacePointerInput>;
  before?: InputMaybe<SiteSpacePointerInput>;
};

export type SiteSpacePointerInput = {
  siteSpace: Scalars['String']['input'];
  /** site-space */
  type: Scalars['String']['input'];
};

export type SiteStructureItemMovePositionInput = {
  after?: InputMaybe<SiteStructureItemPointerInput>;
  before?: InputMaybe<SiteStructureItemPointerInput>;
};

export type SiteStructureItemPointerInput = {
  id: Scalars['String']['input'];
  /** site-space, site-section or site-section-group. */
  type: Scalars['String']['input'];
};

export type SortOrder =
  | 'asc'
  | 'desc';

export type SortSiteStructureInput = {
  item: SiteStructureItemPointerInput;
  /** Before or after a sibling; neither: to the end. */
  position: SiteStructureItemMovePositionInput;
};

/** live: direct edits; locked: all edits are locked. */
export type SpaceEditMode =
  | 'live'
  | 'locked';

export type SpacePointerInput = {
  space: Scalars['ID']['input'];
  /** space */
  type: Scalars['String']['input'];
};

export type SpacePositionInput = {
  after?: InputMaybe<SpacePointerInput>;
  before?: InputMaybe<SpacePointerInput>;
};

export type SpaceTemplateParamsInput = {
  /** Content references by name: `spec` {kind: openapi, spec} or `file` {kind: file, file}. */
  contentRefs?: InputMaybe<Scalars['JSON']['input']>;
};

export type SubmitChangeRequestReviewInput = {
  comment?: InputMaybe<Scalars['JSON']['input']>;
  /** approved or changes-requested. */
  status: Scalars['String']['input'];
};

export type TeamMemberInput = {
  role?: InputMaybe<TeamMemberRole>;
};

/** owner: manages the team's members; member: belongs to the team. */
export type TeamMemberRole =
  | 'member'
  | 'owner';

export type TransferSpaceInput = {
  /** Target organization id. */
  organization: Scalars['ID']['input'];
};

export type TranslationSourceInput = {
  language: Scalars['String']['input'];
  space: Scalars['String']['input'];
};

export type UpdateAgentInstructionsInput = {
  instructions: Scalars['JSON']['input'];
};

export type UpdateChangeRequestInput = {
  /** A rich-text document. */
  description?: InputMaybe<Scalars['JSON']['input']>;
  /** draft, open or archived. */
  status?: InputMaybe<Scalars['String']['input']>;
  /** At most 100 characters. */
  subject?: InputMaybe<Scalars['String']['input']>;
};

export type UpdateCommentInput = {
  /** Emojis the viewer reacts with. */
  addedReactions?: InputMaybe<Array<Scalars['String']['input']>>;
  /** Authors only. */
  body?: InputMaybe<CommentBodyInput>;
  /** Emojis the viewer takes back. */
  removedReactions?: InputMaybe<Array<Scalars['String']['input']>>;
  /** Resolve (true) or reopen (false) the thread. */
  resolved?: InputMaybe<Scalars['Boolean']['input']>;
};

export type UpdateCommentReplyInput = {
  addedReactions?: InputMaybe<Array<Scalars['String']['input']>>;
  /** Authors only. */
  body?: InputMaybe<CommentBodyInput>;
  removedReactions?: InputMaybe<Array<Scalars['String']['input']>>;
  /** Change requests only: resolves or reopens the thread. */
  resolved?: InputMaybe<Scalars['Boolean']['input']>;
};

export type UpdateMemberInput = {
  /** Null makes the member a guest. */
  role?: InputMaybe<Role>;
};

export type UpdateOpenApiSpecInput = {
  visibility: OpenApiSpecVisibility;
};

export type UpdateOrganizationInput = {
  ai?: InputMaybe<Scalars['Boolean']['input']>;
  /** `{ "type": "site", "site": <site id> }` or null */
  defaultContent?: InputMaybe<Scalars['JSON']['input']>;
  defaultRole?: InputMaybe<Role>;
  emailDomains?: InputMaybe<Array<Scalars['String']['input']>>;
  hostname?: InputMaybe<Scalars['String']['input']>;
  inviteLinks?: InputMaybe<Scalars['Boolean']['input']>;
  logo?: InputMaybe<Scalars['String']['input']>;
  mergeRules?: InputMaybe<Scalars['JSON']['input']>;
  sso?: InputMaybe<Scalars['Boolean']['input']>;
  title?: InputMaybe<Scalars['String']['input']>;
};

export type UpdateSamlProviderInput = {
  /** The identity provider's signing certificate, PEM X.509 (max 10000). */
  certificate?: InputMaybe<Scalars['String']['input']>;
  /** Role of new SSO members; null makes them guests. */
  defaultRole?: InputMaybe<Role>;
  /** Id of a team of the organization that new SSO members join; null for none. */
  defaultTeam?: InputMaybe<Scalars['String']['input']>;
  /** The identity provider's entity id (max 1024). */
  entityID?: InputMaybe<Scalars['String']['input']>;
  /** 1..30 characters. */
  label?: InputMaybe<Scalars['String']['input']>;
  /** The identity provider's login URL (http or https, max 2048). */
  ssoURL?: InputMaybe<Scalars['String']['input']>;
};

export type UpdateSiteAdaptiveSchemaInput = {
  /** A draft-07 object schema of boolean visitor claims, with an optional `unsigned` object of them. */
  jsonSchema: Scalars['JSON']['input'];
};

export type UpdateSiteInput = {
  adaptiveContent?: InputMaybe<SiteAdaptiveContentInput>;
  /** excluded or included. */
  agentsContext?: InputMaybe<Scalars['String']['input']>;
  /** 1..100 characters. */
  basename?: InputMaybe<Scalars['String']['input']>;
  /** A section of the site. */
  defaultSiteSection?: InputMaybe<Scalars['String']['input']>;
  /** A site space at the root, or in the default section when there is one. */
  defaultSiteSpace?: InputMaybe<Scalars['String']['input']>;
  /** Host and path (`company.com/docs`, max 512); null removes the proxy. */
  proxy?: InputMaybe<Scalars['String']['input']>;
  /** 2..128 characters. */
  title?: InputMaybe<Scalars['String']['input']>;
  /** public, unlisted, share-link, visitor-auth. */
  visibility?: InputMaybe<Scalars['String']['input']>;
};

export type UpdateSiteSectionGroupInput = {
  /** Icon name. 1..50 characters; may be null. */
  icon?: InputMaybe<Scalars['String']['input']>;
  /** The group's title. 1..100 characters. */
  title?: InputMaybe<Scalars['String']['input']>;
};

export type UpdateSiteSectionInput = {
  /** Expression over `visitor.claims` (max 1024); null removes it. */
  condition?: InputMaybe<Scalars['String']['input']>;
  /** Id of one of its site spaces. */
  defaultSiteSpace?: InputMaybe<Scalars['String']['input']>;
  /** Max 256; null removes it. */
  description?: InputMaybe<Scalars['String']['input']>;
  /** Max 50; null removes it. */
  icon?: InputMaybe<Scalars['String']['input']>;
  /** 1..100; unique among the site's sections (409 when taken). */
  path?: InputMaybe<Scalars['String']['input']>;
  /** 2..128. */
  title?: InputMaybe<Scalars['String']['input']>;
};

export type UpdateSiteShareLinkInput = {
  /** false revokes the link: its key opens nothing any more. */
  active?: InputMaybe<Scalars['Boolean']['input']>;
  /** 0..50 characters. */
  name?: InputMaybe<Scalars['String']['input']>;
};

export type UpdateSiteSpaceInput = {
  /** Expression over `visitor.claims` (max 1024); null removes it. */
  condition?: InputMaybe<Scalars['String']['input']>;
  /** 1..100; unique among the site spaces of its scope (409 when taken). */
  path?: InputMaybe<Scalars['String']['input']>;
  /** The space the site space shows. */
  spaceId?: InputMaybe<Scalars['String']['input']>;
};

export type UpdateSpaceInput = {
  /** Null: only explicit grants give access. */
  defaultLevel?: InputMaybe<Role>;
  editMode?: InputMaybe<SpaceEditMode>;
  /** At most 50 characters; null removes it. */
  emoji?: InputMaybe<Scalars['String']['input']>;
  /** A language code (en, fr, pt-br, ...); null removes it. */
  language?: InputMaybe<Scalars['String']['input']>;
  /** {type: inherit} | {type: rules, rules} | {type: none} */
  mergeRules?: InputMaybe<Scalars['JSON']['input']>;
  /** 1..50 characters. */
  title?: InputMaybe<Scalars['String']['input']>;
};

export type UpdateTeamInput = {
  title?: InputMaybe<Scalars['String']['input']>;
};

export type UpdateTeamMembersInput = {
  /** User ids or emails to add. */
  add?: InputMaybe<Array<Scalars['String']['input']>>;
  /** Map of user id to `{ role }`. */
  memberships?: InputMaybe<Scalars['JSON']['input']>;
  /** User ids or emails to remove; wins over add. */
  remove?: InputMaybe<Array<Scalars['String']['input']>>;
};

export type UpdateTranslationInput = {
  instructions: Scalars['JSON']['input'];
};

export type ViewerQueryVariables = Exact<{ [key: string]: never; }>;


export type ViewerQuery = { viewer: { user: { id: string, displayName: string, email: string } } };

export type OrganizationsQueryVariables = Exact<{
  first?: number | null | undefined;
  after?: string | null | undefined;
}>;


export type OrganizationsQuery = { organizations: { totalCount: number, pageInfo: { hasNextPage: boolean, endCursor: string | null }, nodes: Array<{ id: string, title: string }> } };

export type SiteStructureQueryVariables = Exact<{
  organizationId: string | number;
}>;


export type SiteStructureQuery = { organization: { id: string, title: string, sites: { nodes: Array<{ id: string, title: string, published: boolean, sections: { nodes: Array<{ id: string, title: string, siteSpaces: Array<{ id: string, path: string, title: string, space: { id: string, title: string } | null }> }> }, siteSpaces: { totalCount: number, nodes: Array<{ id: string, path: string, space: { id: string, title: string } | null }> } }> } } | null };


export const ViewerDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"Viewer"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"viewer"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"user"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"displayName"}},{"kind":"Field","name":{"kind":"Name","value":"email"}}]}}]}}]}}]} as unknown as DocumentNode;
export const OrganizationsDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"Organizations"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"first"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"after"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"organizations"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"Variable","name":{"kind":"Name","value":"first"}}},{"kind":"Argument","name":{"kind":"Name","value":"after"},"value":{"kind":"Variable","name":{"kind":"Name","value":"after"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"totalCount"}},{"kind":"Field","name":{"kind":"Name","value":"pageInfo"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"hasNextPage"}},{"kind":"Field","name":{"kind":"Name","value":"endCursor"}}]}},{"kind":"Field","name":{"kind":"Name","value":"nodes"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"title"}}]}}]}}]}}]} as unknown as DocumentNode;
export const SiteStructureDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"SiteStructure"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"organizationId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"organization"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"organizationId"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"title"}},{"kind":"Field","name":{"kind":"Name","value":"sites"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"IntValue","value":"100"}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"nodes"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"title"}},{"kind":"Field","name":{"kind":"Name","value":"published"}},{"kind":"Field","name":{"kind":"Name","value":"sections"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"IntValue","value":"100"}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"nodes"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"title"}},{"kind":"Field","name":{"kind":"Name","value":"siteSpaces"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"path"}},{"kind":"Field","name":{"kind":"Name","value":"title"}},{"kind":"Field","name":{"kind":"Name","value":"space"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"title"}}]}}]}}]}}]}},{"kind":"Field","name":{"kind":"Name","value":"siteSpaces"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"IntValue","value":"100"}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"totalCount"}},{"kind":"Field","name":{"kind":"Name","value":"nodes"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"path"}},{"kind":"Field","name":{"kind":"Name","value":"space"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"title"}}]}}]}}]}}]}}]}}]}}]}}]} as unknown as DocumentNode;

export type SdkFunctionWrapper = <T>(action: (requestHeaders?:Record<string, string>) => Promise<T>, operationName: string, operationType?: string, variables?: any) => Promise<T>;


const defaultWrapper: SdkFunctionWrapper = (action, _operationName, _operationType, _variables) => action();

export function getSdk(client: GraphQLClient, withWrapper: SdkFunctionWrapper = defaultWrapper) {
  return {
    Viewer(variables?: ViewerQueryVariables, requestHeaders?: GraphQLClientRequestHeaders, signal?: RequestInit['signal']): Promise<ViewerQuery> {
      return withWrapper((wrappedRequestHeaders) => client.request<ViewerQuery>({ document: ViewerDocument, variables, requestHeaders: { ...requestHeaders, ...wrappedRequestHeaders }, signal }), 'Viewer', 'query', variables);
    },
    Organizations(variables?: OrganizationsQueryVariables, requestHeaders?: GraphQLClientRequestHeaders, signal?: RequestInit['signal']): Promise<OrganizationsQuery> {
      return withWrapper((wrappedRequestHeaders) => client.request<OrganizationsQuery>({ document: OrganizationsDocument, variables, requestHeaders: { ...requestHeaders, ...wrappedRequestHeaders }, signal }), 'Organizations', 'query', variables);
    },
    SiteStructure(variables: SiteStructureQueryVariables, requestHeaders?: GraphQLClientRequestHeaders, signal?: RequestInit['signal']): Promise<SiteStructureQuery> {
      return withWrapper((wrappedRequestHeaders) => client.request<SiteStructureQuery>({ document: SiteStructureDocument, variables, requestHeaders: { ...requestHeaders, ...wrappedRequestHeaders }, signal }), 'SiteStructure', 'query', variables);
    }
  };
}
export type Sdk = ReturnType<typeof getSdk>;