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

/** A template to apply, with what it needs. */
export type ApplyTemplateInput = {
  /** Apply to this change request's content (id or number) instead of the space's. 1..100 characters. */
  changeRequestId?: InputMaybe<Scalars['String']['input']>;
  /** The template: openapi-reference or file-page. 1..100 characters. */
  id: Scalars['String']['input'];
  /** What the template needs. */
  params?: InputMaybe<SpaceTemplateParamsInput>;
};

/** The time change requests are listed by, newest first. */
export type ChangeRequestOrderBy =
  /** When each was created. */
  | 'createdAt'
  /** When each last changed. */
  | 'updatedAt';

/** Where a change request is in its life. */
export type ChangeRequestStatus =
  /** Closed without merging; reopen it (status open) to change it. */
  | 'archived'
  /** Being written; takes content, reviews and merges like open. */
  | 'draft'
  /** Merged into the space; final. */
  | 'merged'
  /** Ready for review; takes content, reviews and merges. */
  | 'open';

/** A message's body: either markdown or a rich-text document, not both. */
export type CommentBodyInput = {
  /** The body as a rich-text document (`{ object: document, nodes }`). */
  document?: InputMaybe<Scalars['JSON']['input']>;
  /** The body as markdown. 1..100000 characters. */
  markdown?: InputMaybe<Scalars['String']['input']>;
};

/** Whether a comment thread is settled. */
export type CommentStatus =
  /** Not resolved; counted in the open comments of its space or change request. */
  | 'open'
  /** Resolved; it can be reopened. */
  | 'resolved';

/** Which comment threads to list. */
export type CommentStatusFilter =
  /** Open and resolved threads. */
  | 'all'
  /** Open threads only. */
  | 'open'
  /** Resolved threads only. */
  | 'resolved';

/** A cell of a table of a page. */
export type CommentTableCellInput = {
  /** The key of the table's column definition. Not empty. */
  definition: Scalars['String']['input'];
  /** The key of the table's record (row). Not empty. */
  record: Scalars['String']['input'];
};

/** One change: insert a page (`page`) or a file (`file`), update a page (`pageId` and `page`), delete a page (`pageId`, with its subpages) or a file (`fileId`). */
export type ContentChangeInput = {
  /** The file to insert. */
  file?: InputMaybe<FileUploadInput>;
  /** The file to delete. */
  fileId?: InputMaybe<Scalars['ID']['input']>;
  /** The page to insert (with a title), or the fields to update. */
  page?: InputMaybe<PageChangeInput>;
  /** The page to update or delete. */
  pageId?: InputMaybe<Scalars['ID']['input']>;
  /** insert, update or delete. */
  type: Scalars['String']['input'];
};

/** A batch of content changes, written all or nothing as one revision. */
export type ContentChangesInput = {
  /** The changes, applied in order as one new revision. 1..50 items. */
  changes: Array<ContentChangeInput>;
};

export type CreateApiTokenInput = {
  label?: InputMaybe<Scalars['String']['input']>;
};

/** A new change request on the space's current content. */
export type CreateChangeRequestInput = {
  /** The change request's title; default empty. At most 100 characters. */
  subject?: InputMaybe<Scalars['String']['input']>;
  /** A content template applied to its content as it is created (a refused template creates nothing). */
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

/** A new translation of a space of the organization. */
export type CreateTranslationInput = {
  /** Guidance for the translator, as a rich-text document. */
  instructions?: InputMaybe<Scalars['JSON']['input']>;
  /** The language to translate into. One of "en", "fr", "de", "es", "it", "pt", "pt-br", "ru", "ja", "zh", "yue", "ko", "ar", "hi", "nl", "pl", "tr", "sv", "no", "da", "fi", "el", "cs", "hu", "ro", "th", "vi", "id", "ms", "he", "uk", "sk", "bg", "hr", "lt", "lv", "et", "sl". */
  language: Scalars['String']['input'];
  /** The space to translate and its language. */
  source: TranslationSourceInput;
};

/** A Git branch to export the space's content to, as one commit. */
export type ExportToGitRepositoryInput = {
  /** The message of the commit the export makes. 1..10000 characters. */
  commitMessage: Scalars['String']['input'];
  /** Apply even when older than the last operation, or over a moved branch. */
  force?: InputMaybe<Scalars['Boolean']['input']>;
  /** How the repository is shown: its host and tree URL. */
  gitInfo?: InputMaybe<GitSyncInfoInput>;
  /** The branch, as refs/heads/<branch>. At most 255 characters; matching /^refs\/heads\/[A-Za-z0-9._/-]+$/. */
  ref: Scalars['String']['input'];
  /**
   * Ignored: every operation fetches what it needs. At most 255 characters.
   * @deprecated Not used: every operation fetches what it needs.
   */
  repoCacheID?: InputMaybe<Scalars['String']['input']>;
  /** Prefix of the host's commit URLs: a revision's git.url is it followed by the commit id. At most 2048 characters; format uri. */
  repoCommitURL?: InputMaybe<Scalars['String']['input']>;
  /** The directory of the repository that holds the content; default its root. At most 1024 characters. */
  repoProjectDirectory?: InputMaybe<Scalars['String']['input']>;
  /** The repository's tree URL, shown as url. At most 2048 characters; format uri. */
  repoTreeURL?: InputMaybe<Scalars['String']['input']>;
  /** When the triggering event happened: an operation older than the last one applied is skipped. An ISO 8601 date-time with offset. */
  timestamp?: InputMaybe<Scalars['String']['input']>;
  /** The repository URL: http(s)://, or file:// where the server enables it; may carry user:password, which is stored encrypted and never shown. At most 2048 characters. */
  url: Scalars['String']['input'];
};

/** A file to add to the content, its bytes inline. */
export type FileUploadInput = {
  /** The bytes as standard base64 (at most 10 MB once decoded). At most 14000000 characters; matching /^[A-Za-z0-9+/]*={0,2}$/. */
  content: Scalars['String']['input'];
  /** Its MIME type, such as image/png. At most 255 characters; matching /^[\w.+-]+\/[\w.+-]+$/. */
  contentType: Scalars['String']['input'];
  /** Images: height in pixels. 0..9007199254740991 (integer). */
  height?: InputMaybe<Scalars['Int']['input']>;
  /** The file name. 1..255 characters. */
  name: Scalars['String']['input'];
  /** Images: width in pixels. 0..9007199254740991 (integer). */
  width?: InputMaybe<Scalars['Int']['input']>;
};

/** How the repository is shown on the space. */
export type GitSyncInfoInput = {
  /** The Git host, shown as installationProvider. One of "github", "gitlab". */
  provider?: InputMaybe<Scalars['String']['input']>;
  /** The repository's tree URL, shown as url (wins over repoTreeURL). At most 2048 characters; format uri. */
  url?: InputMaybe<Scalars['String']['input']>;
};

/** A Git branch to import as the space's content. */
export type ImportGitRepositoryInput = {
  /** Apply even when older than the last operation, or over a moved branch. */
  force?: InputMaybe<Scalars['Boolean']['input']>;
  /** How the repository is shown: its host and tree URL. */
  gitInfo?: InputMaybe<GitSyncInfoInput>;
  /** The branch, as refs/heads/<branch>. At most 255 characters; matching /^refs\/heads\/[A-Za-z0-9._/-]+$/. */
  ref: Scalars['String']['input'];
  /**
   * Ignored: every operation fetches what it needs. At most 255 characters.
   * @deprecated Not used: every operation fetches what it needs.
   */
  repoCacheID?: InputMaybe<Scalars['String']['input']>;
  /** Prefix of the host's commit URLs: a revision's git.url is it followed by the commit id. At most 2048 characters; format uri. */
  repoCommitURL?: InputMaybe<Scalars['String']['input']>;
  /** The directory of the repository that holds the content; default its root. At most 1024 characters. */
  repoProjectDirectory?: InputMaybe<Scalars['String']['input']>;
  /** The repository's tree URL, shown as url. At most 2048 characters; format uri. */
  repoTreeURL?: InputMaybe<Scalars['String']['input']>;
  /** Make a revision without making it the space's content. */
  standalone?: InputMaybe<Scalars['Boolean']['input']>;
  /** When the triggering event happened: an operation older than the last one applied is skipped. An ISO 8601 date-time with offset. */
  timestamp?: InputMaybe<Scalars['String']['input']>;
  /** The repository URL: http(s)://, or file:// where the server enables it; may carry user:password, which is stored encrypted and never shown. At most 2048 characters. */
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

/** Where a background job is. */
export type JobStatus =
  /** Finished successfully. */
  | 'done'
  /** Out of attempts; lastError says why. */
  | 'failed'
  /** Waiting to run, or to be retried after a failed attempt. */
  | 'pending'
  /** Running now. */
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

/** Page fields; an insert needs a title, an update sets only the fields it names. */
export type PageChangeInput = {
  /** The cover image: `{ ref, refDark, yPos, height }` (height 10..700 pixels); null removes it. May be null. */
  cover?: InputMaybe<Scalars['JSON']['input']>;
  /** A short summary of the page; null removes it. At most 1000 characters; may be null. */
  description?: InputMaybe<Scalars['String']['input']>;
  /** An emoji shown as the page's icon; null removes it. At most 50 characters; may be null. */
  emoji?: InputMaybe<Scalars['String']['input']>;
  /** Flag for the published site: leave the page out of its navigation. */
  hidden?: InputMaybe<Scalars['Boolean']['input']>;
  /** Link pages: the URL they point at. At most 2048 characters; format uri; may be null. */
  href?: InputMaybe<Scalars['String']['input']>;
  /** Document pages' layout options, any of: width (default, wide), cover, coverSize (hero, full), title, description, tableOfContents, outline, pagination, metadata, tags (booleans). May be null. */
  layout?: InputMaybe<Scalars['JSON']['input']>;
  /** The body of a document page, as markdown. At most 1000000 characters. */
  markdown?: InputMaybe<Scalars['String']['input']>;
  /** Flag for the published site: leave the page out of its search. */
  noIndex?: InputMaybe<Scalars['Boolean']['input']>;
  /** Flag for the published site: ask search engines not to index the page. */
  noRobotsIndex?: InputMaybe<Scalars['Boolean']['input']>;
  /** Id of the parent page; null moves it to the root. Not empty; may be null. */
  parent?: InputMaybe<Scalars['ID']['input']>;
  /** Where among its siblings; default after the last one. */
  position?: InputMaybe<PagePositionInput>;
  /** The page's path segment: lowercase letters and digits separated by - _ or .; default from the title, made unique among its siblings. At most 100 characters; matching /^[a-z0-9]+(?:[-_.][a-z0-9]+)*$/. */
  slug?: InputMaybe<Scalars['String']['input']>;
  /** The page's title (required to insert a page). 1..200 characters. */
  title?: InputMaybe<Scalars['String']['input']>;
  /** The kind of page; default document. One of "document", "group", "link". */
  type?: InputMaybe<Scalars['String']['input']>;
  /** The page's variables for expressions: names (1..100 characters) to strings, numbers or booleans. */
  variables?: InputMaybe<Scalars['JSON']['input']>;
};

/** The format of a body. */
export type PageFormat =
  /** A rich-text document (JSON, `{ object: document, nodes }`). */
  | 'document'
  /** Markdown text. */
  | 'markdown';

/** A place among the page's siblings: just before or just after one of them. */
export type PagePositionInput = {
  /** Id of a sibling page to place it just after. Not empty. */
  after?: InputMaybe<Scalars['ID']['input']>;
  /** Id of a sibling page to place it just before. Not empty. */
  before?: InputMaybe<Scalars['ID']['input']>;
};

/** A new comment thread, on the whole content, a page, a block of a page or a table cell. */
export type PostCommentInput = {
  /** The comment: markdown or a rich-text document. */
  body: CommentBodyInput;
  /** Key of a node (block) of that page's document; needs page. Not empty. */
  node?: InputMaybe<Scalars['String']['input']>;
  /** Id of the page it is about, in the revision the commenter sees; omitted: the whole content. Not empty. */
  page?: InputMaybe<Scalars['ID']['input']>;
  /** A cell of a table of that page; needs page. */
  tableCell?: InputMaybe<CommentTableCellInput>;
};

/** A new reply in a thread. */
export type PostCommentReplyInput = {
  /** The reply: markdown or a rich-text document. */
  body: CommentBodyInput;
};

/** Users to ask for a review, and optionally a new title and description for the change request. */
export type RequestReviewersInput = {
  /** Replaces the change request's description (a rich-text document). */
  description?: InputMaybe<Scalars['JSON']['input']>;
  /** Replaces the change request's title. At most 100 characters. */
  subject?: InputMaybe<Scalars['String']['input']>;
  /** Ids of the users to ask, each a member of the space's organization. 1..100 items. */
  users: Array<Scalars['ID']['input']>;
};

/** Role of a member: admin > create > review > edit > comment > read. Null means a guest. */
export type Role =
  /** Everything, including settings, members and deletion. */
  | 'admin'
  /** Comment, reply and react; everything read may. */
  | 'comment'
  /** Create spaces, sites, OpenAPI specs and translations; everything review may. */
  | 'create'
  /** Edit content, directly or through change requests; everything comment may. */
  | 'edit'
  /** See and read. */
  | 'read'
  /** Review and merge change requests; everything edit may. */
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

/** A direction of sorting. */
export type SortOrder =
  /** Ascending: oldest or smallest first. */
  | 'asc'
  /** Descending: newest or largest first. */
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

/** What a template needs to add its pages. */
export type SpaceTemplateParamsInput = {
  /** The content the template needs, by name: openapi-reference takes `spec` ({ kind: openapi, spec: <spec slug> }), file-page takes `file` ({ kind: file, file: <file id> }). */
  contentRefs?: InputMaybe<Scalars['JSON']['input']>;
};

/** A review of the change request's current revision. */
export type SubmitChangeRequestReviewInput = {
  /** Refused when given: post review comments as comments. */
  comment?: InputMaybe<Scalars['JSON']['input']>;
  /** The verdict on the change request's current revision (authors may not approve their own). One of "approved", "changes-requested". */
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

/** The space to translate. */
export type TranslationSourceInput = {
  /** The language the space is written in. One of "en", "fr", "de", "es", "it", "pt", "pt-br", "ru", "ja", "zh", "yue", "ko", "ar", "hi", "nl", "pl", "tr", "sv", "no", "da", "fi", "el", "cs", "hu", "ro", "th", "vi", "id", "ms", "he", "uk", "sk", "bg", "hr", "lt", "lv", "et", "sl". */
  language: Scalars['String']['input'];
  /** Id of the space to translate, in the organization. Not empty. */
  space: Scalars['ID']['input'];
};

export type UpdateAgentInstructionsInput = {
  instructions: Scalars['JSON']['input'];
};

/** The change request's fields to change; those omitted stay. */
export type UpdateChangeRequestInput = {
  /** What the change is about, as a rich-text document; null clears it. May be null. */
  description?: InputMaybe<Scalars['JSON']['input']>;
  /** Draft or archived ones take no content, review or merge until reopened. One of "draft", "open", "archived". */
  status?: InputMaybe<Scalars['String']['input']>;
  /** The change request's title. At most 100 characters. */
  subject?: InputMaybe<Scalars['String']['input']>;
};

/** Changes to a comment; those omitted stay. */
export type UpdateCommentInput = {
  /** Emojis (each 1..32 characters) the viewer reacts with; reacting twice keeps one reaction. At most 20 items. */
  addedReactions?: InputMaybe<Array<Scalars['String']['input']>>;
  /** A new body (the author only). */
  body?: InputMaybe<CommentBodyInput>;
  /** Emojis (each 1..32 characters) whose reaction by the viewer is taken back. At most 20 items. */
  removedReactions?: InputMaybe<Array<Scalars['String']['input']>>;
  /** true resolves the thread, false reopens it. */
  resolved?: InputMaybe<Scalars['Boolean']['input']>;
};

/** Changes to a reply; those omitted stay. */
export type UpdateCommentReplyInput = {
  /** Emojis (each 1..32 characters) the viewer reacts with; reacting twice keeps one reaction. At most 20 items. */
  addedReactions?: InputMaybe<Array<Scalars['String']['input']>>;
  /** A new body (the author only). */
  body?: InputMaybe<CommentBodyInput>;
  /** Emojis (each 1..32 characters) whose reaction by the viewer is taken back. At most 20 items. */
  removedReactions?: InputMaybe<Array<Scalars['String']['input']>>;
  /** Change requests' comments only: true resolves the thread, false reopens it. */
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

/** New settings of a translation. */
export type UpdateTranslationInput = {
  /** Guidance for the translator, as a rich-text document (replaces the old). */
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