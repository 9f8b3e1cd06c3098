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

/** A person to add to an organization, by email. */
export type AddOrganizationMemberInput = {
  /** Their name, trimmed, used when no user has this email yet; omitted: the email's local part. 1..100 characters. */
  displayName?: InputMaybe<Scalars['String']['input']>;
  /** The person's email address, compared in lower case. At most 320 characters; format email. */
  email: Scalars['String']['input'];
  /** Their organization role; null: a guest. One of "admin", "create", "review", "edit", "comment", "read"; may be null. */
  role?: InputMaybe<Role>;
};

/** A new section group. */
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

/** A section to move into a group. */
export type AddSectionToGroupInput = {
  /** Id of a section of the site; it moves to the end of the group. Not empty. */
  sectionId: Scalars['ID']['input'];
};

/** A new section, made with one site space. */
export type AddSectionToSiteInput = {
  /** Icon name. 1..50 characters; may be null. */
  icon?: InputMaybe<Scalars['String']['input']>;
  /** Id of a space of the organization: the section's first site space. Not empty. */
  spaceId: Scalars['ID']['input'];
  /** The section's title, trimmed; omitted: the space's title ("Section" when that does not fit). 2..128 characters; may be null. */
  title?: InputMaybe<Scalars['String']['input']>;
};

/** A space to show on a site, and where. */
export type AddSpaceToSiteInput = {
  /** Id of a section of the site to add it to; omitted: the default section, or the root without sections. Not empty; may be null. */
  sectionId?: InputMaybe<Scalars['ID']['input']>;
  /** Id of a space of the organization to show on the site. Not empty. */
  spaceId: Scalars['ID']['input'];
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

/** Conditions on the change requests listed, all of which must hold. */
export type ChangeRequestFilter = {
  /** Only change requests created after this time (ISO 8601). Format date-time; may be null. */
  createdAfter?: InputMaybe<Scalars['String']['input']>;
  /** Only change requests created before this time (ISO 8601). Format date-time; may be null. */
  createdBefore?: InputMaybe<Scalars['String']['input']>;
  /** Only change requests whose subject contains this, ignoring case. 1..256 characters; may be null. */
  subjectContains?: InputMaybe<Scalars['String']['input']>;
  /** Only change requests last changed after this time (ISO 8601). Format date-time; may be null. */
  updatedAfter?: InputMaybe<Scalars['String']['input']>;
  /** Only change requests last changed before this time (ISO 8601). Format date-time; may be null. */
  updatedBefore?: InputMaybe<Scalars['String']['input']>;
};

/** One sort key of change requests. */
export type ChangeRequestOrder = {
  /** Ascending or descending. */
  direction: OrderDirection;
  /** The field to sort by. */
  field: ChangeRequestOrderField;
};

/** The time change requests are listed by, newest first. */
export type ChangeRequestOrderBy =
  /** When each was created. */
  | 'createdAt'
  /** When each last changed. */
  | 'updatedAt';

/** A field change requests sort by. */
export type ChangeRequestOrderField =
  /** When it was created. */
  | 'CREATED_AT'
  /** Its number in its space. */
  | 'NUMBER'
  /** When it was last changed. */
  | 'UPDATED_AT';

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

/** Conditions on the comment threads listed, all of which must hold. */
export type CommentFilter = {
  /** Only comments posted after this time (ISO 8601). Format date-time; may be null. */
  postedAfter?: InputMaybe<Scalars['String']['input']>;
  /** Only comments posted before this time (ISO 8601). Format date-time; may be null. */
  postedBefore?: InputMaybe<Scalars['String']['input']>;
  /** Only comments whose text contains this, ignoring case. 1..256 characters; may be null. */
  textContains?: InputMaybe<Scalars['String']['input']>;
};

/** One sort key of comment threads. */
export type CommentOrder = {
  /** Ascending or descending. */
  direction: OrderDirection;
  /** The field to sort by. */
  field: CommentOrderField;
};

/** A field comment threads sort by. */
export type CommentOrderField =
  /** When it was posted. */
  | 'POSTED_AT';

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

/** A new API token. */
export type CreateApiTokenInput = {
  /** A name to recognize the token by, trimmed; omitted: none. 1..100 characters. */
  label?: InputMaybe<Scalars['String']['input']>;
};

/** A new change request on the space's current content. */
export type CreateChangeRequestInput = {
  /** The change request's title; default empty. At most 100 characters. */
  subject?: InputMaybe<Scalars['String']['input']>;
  /** A content template applied to its content as it is created (a refused template creates nothing). */
  template?: InputMaybe<Scalars['JSON']['input']>;
};

/** A new collection. */
export type CreateCollectionInput = {
  /** Id of a collection of the organization to nest it in; omitted: the root. Not empty. */
  parent?: InputMaybe<Scalars['ID']['input']>;
  /** The collection's title, trimmed; omitted: "Untitled". 1..50 characters. */
  title?: InputMaybe<Scalars['String']['input']>;
};

/** A new OpenAPI spec. */
export type CreateOpenApiSpecInput = {
  /** The spec's name in URLs, unique in the organization: letters and digits in groups joined by single hyphens. 1..100 characters; matching /^[a-zA-Z0-9]+(?:-[a-zA-Z0-9]+)*$/. */
  slug: Scalars['String']['input'];
  /** Where the document comes from: exactly one of url and text. */
  source: OpenApiSpecSourceInput;
};

/** The source of a spec to create or update. */
export type CreateOrUpdateOpenApiSpecInput = {
  /** Where the document comes from: exactly one of url and text; replaces the source. */
  source: OpenApiSpecSourceInput;
};

/** A new organization. */
export type CreateOrganizationInput = {
  /** Email domains (such as example.com) whose verified users may join it themselves; omitted: none. At most 100 items. */
  emailDomains?: InputMaybe<Array<Scalars['String']['input']>>;
  /** The organization's name, without leading or trailing spaces. 2..255 characters; matching /^\S(.*\S)?$/. */
  title: Scalars['String']['input'];
  /** The kind of organization; omitted: business. One of "business", "community". */
  type?: InputMaybe<Scalars['String']['input']>;
  /** What it documents; omitted: not set. One of "internalDocs", "docsSite", "audienceControlledSite", "productDocs", "teamKnowledgeBase", "designSystem", "openSourceDocs", "notes", "other". */
  useCase?: InputMaybe<Scalars['String']['input']>;
};

/** A new SAML provider; it is active once entityID, ssoURL and certificate are set. */
export type CreateSamlProviderInput = {
  /** The identity provider's signing certificate, PEM X.509 (-----BEGIN CERTIFICATE----- ...). At most 10000 characters. */
  certificate?: InputMaybe<Scalars['String']['input']>;
  /** The organization role of new SSO members; null makes them guests. One of "admin", "create", "review", "edit", "comment", "read"; may be null. */
  defaultRole?: InputMaybe<Role>;
  /** Id of a team of the organization that new SSO members join; null: none. Not empty; may be null. */
  defaultTeam?: InputMaybe<Scalars['ID']['input']>;
  /** The identity provider's entity id, trimmed. 1..1024 characters. */
  entityID?: InputMaybe<Scalars['String']['input']>;
  /** The name members see on the sign-in page, trimmed. 1..30 characters. */
  label: Scalars['String']['input'];
  /** The identity provider's login URL (http or https). At most 2048 characters; format uri. */
  ssoURL?: InputMaybe<Scalars['String']['input']>;
};

/** A new site. */
export type CreateSiteInput = {
  /** Ids of spaces to add to the site as site spaces, in order (duplicates once). At most 100 items. */
  spaces?: InputMaybe<Array<Scalars['ID']['input']>>;
  /** The site's title, trimmed; omitted: "Untitled site". 2..128 characters. */
  title?: InputMaybe<Scalars['String']['input']>;
  /** The site's plan type; omitted: basic. One of "basic", "premium", "ultimate", "sponsored", "legacy-basic", "legacy-premium". */
  type?: InputMaybe<Scalars['String']['input']>;
  /** Who may read the published site; omitted: public (anyone). One of "public", "unlisted", "share-link", "visitor-auth". */
  visibility?: InputMaybe<Scalars['String']['input']>;
};

/** A new share link. */
export type CreateSiteShareLinkInput = {
  /** A name for the link (who it is for), trimmed; may be empty. At most 50 characters. */
  name: Scalars['String']['input'];
};

/** A new space. */
export type CreateSpaceInput = {
  /** Whether its content may be edited; omitted: live. One of "live", "locked". */
  editMode?: InputMaybe<SpaceEditMode>;
  /** An emoji shown with the title; omitted: none. At most 50 characters. */
  emoji?: InputMaybe<Scalars['String']['input']>;
  /** Create an empty space; only true is accepted, as an empty space is the only kind created. */
  empty?: InputMaybe<Scalars['Boolean']['input']>;
  /** The content's language code; omitted: none. One of "en", "fr", "de", "es", "it", "pt", "pt-br", "ru", "ja", "zh", "yue", "ko", "ar", "hi", "nl", "pl", "tr", "sv", "no", "da", "fi", "el", "cs", "hu", "ro", "th", "vi", "id", "ms", "he", "uk", "sk", "bg", "hr", "lt", "lv", "et", "sl". */
  language?: InputMaybe<Scalars['String']['input']>;
  /** Id of a collection of the organization to create it in; omitted: the root. Not empty. */
  parent?: InputMaybe<Scalars['ID']['input']>;
  /** The space's title, trimmed; omitted: "Untitled". 1..50 characters. */
  title?: InputMaybe<Scalars['String']['input']>;
};

/** A new team. */
export type CreateTeamInput = {
  /** Members to put in it (role member), each a user id or an email (any case) of an organization member. At most 1000 items. */
  members?: InputMaybe<Array<Scalars['String']['input']>>;
  /** The team's title, trimmed. 1..64 characters. */
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

/** A role to grant (or revoke) on a space, and to whom: give `users`, `teams` or both. */
export type InviteToSpaceInput = {
  /** The role to grant; null removes the grants of these users and teams. One of "admin", "create", "review", "edit", "comment", "read"; may be null. */
  role?: InputMaybe<Role>;
  /** Ids of teams of the space's organization. 1..1000 items. */
  teams?: InputMaybe<Array<Scalars['ID']['input']>>;
  /** Ids of users, members of the space's organization. 1..1000 items. */
  users?: InputMaybe<Array<Scalars['ID']['input']>>;
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

/** An invite link's role. */
export type LinkInviteInput = {
  /** The organization role the link gives; null: joiners become guests. One of "admin", "create", "review", "edit", "comment", "read"; may be null. */
  role?: InputMaybe<Role>;
};

/** Conditions on the members listed, all of which must hold. */
export type MemberFilter = {
  /** Only members who joined after this time (ISO 8601). Format date-time; may be null. */
  joinedAfter?: InputMaybe<Scalars['String']['input']>;
  /** Only members who joined before this time (ISO 8601). Format date-time; may be null. */
  joinedBefore?: InputMaybe<Scalars['String']['input']>;
  /** Only members with this role; guest: members without an organization role. One of "admin", "create", "review", "edit", "comment", "read", "guest"; may be null. */
  role?: InputMaybe<MemberRoleFilter>;
};

/** One sort key of members. */
export type MemberOrder = {
  /** Ascending or descending. */
  direction: OrderDirection;
  /** The field to sort by. */
  field: MemberOrderField;
};

/** A field members sort by. */
export type MemberOrderField =
  /** When the member joined. */
  | 'JOINED_AT'
  /** When the member was last active (lists only members who have been active). */
  | 'LAST_SEEN_AT';

/** A role, or guest for members without one. */
export type MemberRoleFilter =
  /** Organization admins. */
  | 'admin'
  /** Members with the comment role. */
  | 'comment'
  /** Members with the create role. */
  | 'create'
  /** Members with the edit role. */
  | 'edit'
  /** Guests: members without an organization role. */
  | 'guest'
  /** Members with the read role. */
  | 'read'
  /** Members with the review role. */
  | 'review';

/** What members are listed by. */
export type MemberSort =
  /** When they joined. */
  | 'joinedAt'
  /** When they were last active; lists only members who have been active. */
  | 'lastSeenAt';

/** Where to move a section group. */
export type MoveSiteSectionGroupInput = {
  /** Where to place the group; omitted: at the end. */
  position?: InputMaybe<SiteSectionGroupMovePositionInput>;
};

/** Where to move a section. */
export type MoveSiteSectionInput = {
  /** Where to place the section; omitted: at the end. */
  position?: InputMaybe<SiteSectionMovePositionInput>;
};

/** Where to move a site space. */
export type MoveSiteSpaceInput = {
  /** Where to place the site space; omitted: at the end. */
  position?: InputMaybe<SiteSpaceMovePositionInput>;
};

/** Where to move a space: give `parent`, `position` or both. */
export type MoveSpaceInput = {
  /** Id of a collection of the organization to move it into; null: the root; omitted: stays. Not empty; may be null. */
  parent?: InputMaybe<Scalars['ID']['input']>;
  /** Next to a sibling (exactly one of before and after); omitted: at the end. */
  position?: InputMaybe<SpacePositionInput>;
};

/** Conditions on the OpenAPI specs listed, all of which must hold. */
export type OpenApiSpecFilter = {
  /** Only specs created after this time (ISO 8601). Format date-time; may be null. */
  createdAfter?: InputMaybe<Scalars['String']['input']>;
  /** Only specs created before this time (ISO 8601). Format date-time; may be null. */
  createdBefore?: InputMaybe<Scalars['String']['input']>;
  /** Only specs in this processing state. One of "pending", "progress", "complete"; may be null. */
  processingState?: InputMaybe<Scalars['String']['input']>;
  /** Only specs whose slug contains this text, ignoring case. 1..256 characters; may be null. */
  slugContains?: InputMaybe<Scalars['String']['input']>;
  /** Only specs last changed after this time (ISO 8601). Format date-time; may be null. */
  updatedAfter?: InputMaybe<Scalars['String']['input']>;
  /** Only specs last changed before this time (ISO 8601). Format date-time; may be null. */
  updatedBefore?: InputMaybe<Scalars['String']['input']>;
};

/** One sort key of OpenAPI specs. */
export type OpenApiSpecOrder = {
  /** Ascending or descending. */
  direction: OrderDirection;
  /** The field to sort by. */
  field: OpenApiSpecOrderField;
};

/** A field OpenAPI specs sort by. */
export type OpenApiSpecOrderField =
  /** When it was created. */
  | 'CREATED_AT'
  /** Its slug, in the database's text order. */
  | 'SLUG'
  /** When it was last changed. */
  | 'UPDATED_AT';

/** Why the last processing failed. */
export type OpenApiSpecProcessErrorCode =
  /** The source URL could not be fetched (unreachable, refused or an error answer). */
  | 'FETCH_ERROR'
  /** Fetching the source URL took too long. */
  | 'FETCH_TIMEOUT'
  /** The source is not a valid OpenAPI or Swagger document in JSON or YAML. */
  | 'PARSE_ERROR';

/** Where a spec's processing stands. */
export type OpenApiSpecProcessingState =
  /** Done, with a new version or the errors of `lastProcessedErrors`. */
  | 'complete'
  /** Queued (also between retries of a fetch that may pass). */
  | 'pending'
  /** Being fetched and parsed. */
  | 'progress';

/** Exactly one of `url` (fetched by the server) or `text` (the document itself). */
export type OpenApiSpecSourceInput = {
  /** The document itself, JSON or YAML. 1..10485760 characters. */
  text?: InputMaybe<Scalars['String']['input']>;
  /** Where the server fetches the document (http or https), at each processing. At most 2048 characters; format uri. */
  url?: InputMaybe<Scalars['String']['input']>;
};

/** Who may read a spec's versions' sources. */
export type OpenApiSpecVisibility =
  /** Organization members only. */
  | 'private'
  /** Anyone: the versions' source URLs are readable without a token. */
  | 'public';

/** A direction of an `orderBy` key. */
export type OrderDirection =
  /** Ascending: oldest, smallest or first in alphabetical order first. */
  | 'ASC'
  /** Descending: newest, largest or last in alphabetical order first. */
  | 'DESC';

/** Conditions on the organizations listed, all of which must hold. */
export type OrganizationFilter = {
  /** Only organizations created after this time (ISO 8601). Format date-time; may be null. */
  createdAfter?: InputMaybe<Scalars['String']['input']>;
  /** Only organizations created before this time (ISO 8601). Format date-time; may be null. */
  createdBefore?: InputMaybe<Scalars['String']['input']>;
  /** Only organizations whose title contains this text, ignoring case. 1..256 characters; may be null. */
  titleContains?: InputMaybe<Scalars['String']['input']>;
  /** Only organizations last changed after this time (ISO 8601). Format date-time; may be null. */
  updatedAfter?: InputMaybe<Scalars['String']['input']>;
  /** Only organizations last changed before this time (ISO 8601). Format date-time; may be null. */
  updatedBefore?: InputMaybe<Scalars['String']['input']>;
};

/** One sort key of organizations. */
export type OrganizationOrder = {
  /** Ascending or descending. */
  direction: OrderDirection;
  /** The field to sort by. */
  field: OrganizationOrderField;
};

/** A field organizations sort by. */
export type OrganizationOrderField =
  /** When it was created. */
  | 'CREATED_AT'
  /** Its title, in the database's text order. */
  | 'TITLE'
  /** When it was last changed. */
  | 'UPDATED_AT';

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

/** Whether a SAML provider can be signed in with. */
export type SamlProviderStatus =
  /** entityID, ssoURL and certificate are all set: members may sign in with it. */
  | 'active'
  /** Some of entityID, ssoURL and certificate are missing: not offered yet. */
  | 'pending';

/** Adaptive content settings. */
export type SiteAdaptiveContentInput = {
  /** Whether the site adapts its content to visitor claims. */
  enabled: Scalars['Boolean']['input'];
};

/** Conditions on the sites listed, all of which must hold. */
export type SiteFilter = {
  /** Only sites created after this time (ISO 8601). Format date-time; may be null. */
  createdAfter?: InputMaybe<Scalars['String']['input']>;
  /** Only sites created before this time (ISO 8601). Format date-time; may be null. */
  createdBefore?: InputMaybe<Scalars['String']['input']>;
  /** Only published (true) or unpublished (false) sites. */
  published?: InputMaybe<Scalars['Boolean']['input']>;
  /** Only sites whose title contains this text, ignoring case. 1..256 characters; may be null. */
  titleContains?: InputMaybe<Scalars['String']['input']>;
  /** Only sites of this type. One of "basic", "premium", "ultimate", "sponsored", "legacy-basic", "legacy-premium"; may be null. */
  type?: InputMaybe<Scalars['String']['input']>;
  /** Only sites last changed after this time (ISO 8601). Format date-time; may be null. */
  updatedAfter?: InputMaybe<Scalars['String']['input']>;
  /** Only sites last changed before this time (ISO 8601). Format date-time; may be null. */
  updatedBefore?: InputMaybe<Scalars['String']['input']>;
  /** Only sites with this visibility. One of "public", "unlisted", "share-link", "visitor-auth"; may be null. */
  visibility?: InputMaybe<Scalars['String']['input']>;
};

/** One sort key of sites. */
export type SiteOrder = {
  /** Ascending or descending. */
  direction: OrderDirection;
  /** The field to sort by. */
  field: SiteOrderField;
};

/** A field sites sort by. */
export type SiteOrderField =
  /** When it was created. */
  | 'CREATED_AT'
  /** Its title, in the database's text order. */
  | 'TITLE'
  /** When it was last changed. */
  | 'UPDATED_AT';

/** Conditions on the sections listed, all of which must hold. */
export type SiteSectionFilter = {
  /** Only sections created after this time (ISO 8601). Format date-time; may be null. */
  createdAfter?: InputMaybe<Scalars['String']['input']>;
  /** Only sections created before this time (ISO 8601). Format date-time; may be null. */
  createdBefore?: InputMaybe<Scalars['String']['input']>;
  /** Only sections whose title contains this text, ignoring case. 1..256 characters; may be null. */
  titleContains?: InputMaybe<Scalars['String']['input']>;
};

/** Where to place a group among its siblings: before or after one of them. */
export type SiteSectionGroupMovePositionInput = {
  /** Place it just after this sibling. */
  after?: InputMaybe<SiteSectionGroupPointerInput>;
  /** Place it just before this sibling. */
  before?: InputMaybe<SiteSectionGroupPointerInput>;
};

/** A section or group, as a sibling to place a group before or after. */
export type SiteSectionGroupPointerInput = {
  /** Id of a section or group with the same parent. Not empty. */
  id: Scalars['ID']['input'];
  /** The sibling's type. One of "site-section", "site-section-group". */
  type: Scalars['String']['input'];
};

/** Where to place a section among its siblings: before or after one of them. */
export type SiteSectionMovePositionInput = {
  /** Place it just after this section. */
  after?: InputMaybe<SiteSectionPointerInput>;
  /** Place it just before this section. */
  before?: InputMaybe<SiteSectionPointerInput>;
};

/** One sort key of site sections. */
export type SiteSectionOrder = {
  /** Ascending or descending. */
  direction: OrderDirection;
  /** The field to sort by. */
  field: SiteSectionOrderField;
};

/** A field site sections sort by. */
export type SiteSectionOrderField =
  /** When it was created. */
  | 'CREATED_AT'
  /** Its place in the order the site shows. */
  | 'POSITION'
  /** Its title, in the database's text order. */
  | 'TITLE';

/** A section, as a sibling to place another before or after. */
export type SiteSectionPointerInput = {
  /** Id of a section with the same parent (site root or group). Not empty. */
  siteSection: Scalars['ID']['input'];
  /** Always "site-section". */
  type: Scalars['String']['input'];
};

/** Conditions on the site spaces listed, all of which must hold. */
export type SiteSpaceFilter = {
  /** Only site spaces created after this time (ISO 8601). Format date-time; may be null. */
  createdAfter?: InputMaybe<Scalars['String']['input']>;
  /** Only site spaces created before this time (ISO 8601). Format date-time; may be null. */
  createdBefore?: InputMaybe<Scalars['String']['input']>;
  /** Only site spaces whose path contains this text, ignoring case. 1..256 characters; may be null. */
  pathContains?: InputMaybe<Scalars['String']['input']>;
};

/** Where to place a site space among its siblings: before or after one of them. */
export type SiteSpaceMovePositionInput = {
  /** Place it just after this site space. */
  after?: InputMaybe<SiteSpacePointerInput>;
  /** Place it just before this site space. */
  before?: InputMaybe<SiteSpacePointerInput>;
};

/** One sort key of site spaces. */
export type SiteSpaceOrder = {
  /** Ascending or descending. */
  direction: OrderDirection;
  /** The field to sort by. */
  field: SiteSpaceOrderField;
};

/** A field site spaces sort by. */
export type SiteSpaceOrderField =
  /** When it was created. */
  | 'CREATED_AT'
  /** Its URL path, in the database's text order. */
  | 'PATH'
  /** Its place in the order the site shows. */
  | 'POSITION';

/** A site space, as a sibling to place another before or after. */
export type SiteSpacePointerInput = {
  /** Id of a site space of the same scope (section or root). Not empty. */
  siteSpace: Scalars['ID']['input'];
  /** Always "site-space". */
  type: Scalars['String']['input'];
};

/** Where to place an item among its siblings: before or after one of them. */
export type SiteStructureItemMovePositionInput = {
  /** Place it just after this sibling. */
  after?: InputMaybe<SiteStructureItemPointerInput>;
  /** Place it just before this sibling. */
  before?: InputMaybe<SiteStructureItemPointerInput>;
};

/** An item of a site's structure: a site space, section or section group. */
export type SiteStructureItemPointerInput = {
  /** The item's id. Not empty. */
  id: Scalars['ID']['input'];
  /** The item's type. One of "site-space", "site-section", "site-section-group". */
  type: Scalars['String']['input'];
};

/** A direction of sorting. */
export type SortOrder =
  /** Ascending: oldest or smallest first. */
  | 'asc'
  /** Descending: newest or largest first. */
  | 'desc';

/** An item of a site's structure and where to place it among its siblings. */
export type SortSiteStructureInput = {
  /** The item to move; it keeps its parent. */
  item: SiteStructureItemPointerInput;
  /** Before or after a sibling (same parent; a site space: same section or root); neither: at the end. */
  position: SiteStructureItemMovePositionInput;
};

/** Whether a space's content may be edited. */
export type SpaceEditMode =
  /** Editors change the content directly or through change requests. */
  | 'live'
  /** All edits are locked: nobody edits the content, whatever their role. */
  | 'locked';

/** Conditions on the spaces listed, all of which must hold. */
export type SpaceFilter = {
  /** Only spaces created after this time (ISO 8601). Format date-time; may be null. */
  createdAfter?: InputMaybe<Scalars['String']['input']>;
  /** Only spaces created before this time (ISO 8601). Format date-time; may be null. */
  createdBefore?: InputMaybe<Scalars['String']['input']>;
  /** Only spaces whose title contains this text, ignoring case. 1..256 characters; may be null. */
  titleContains?: InputMaybe<Scalars['String']['input']>;
  /** Only spaces last changed after this time (ISO 8601). Format date-time; may be null. */
  updatedAfter?: InputMaybe<Scalars['String']['input']>;
  /** Only spaces last changed before this time (ISO 8601). Format date-time; may be null. */
  updatedBefore?: InputMaybe<Scalars['String']['input']>;
  /** Only spaces with this visibility. One of "public", "unlisted", "share-link", "visitor-auth", "in-collection", "private"; may be null. */
  visibility?: InputMaybe<Scalars['String']['input']>;
};

/** One sort key of spaces. */
export type SpaceOrder = {
  /** Ascending or descending. */
  direction: OrderDirection;
  /** The field to sort by. */
  field: SpaceOrderField;
};

/** A field spaces sort by. */
export type SpaceOrderField =
  /** When it was created. */
  | 'CREATED_AT'
  /** Its place in the order the site shows. */
  | 'POSITION'
  /** Its title, in the database's text order. */
  | 'TITLE'
  /** When it was last changed. */
  | 'UPDATED_AT';

/** A space, as a sibling to place another before or after. */
export type SpacePointerInput = {
  /** Id of a sibling space (same parent). Not empty. */
  space: Scalars['ID']['input'];
  /** Always "space". */
  type: Scalars['String']['input'];
};

/** Where to place a space among its siblings: before or after one of them. */
export type SpacePositionInput = {
  /** Place it just after this space. */
  after?: InputMaybe<SpacePointerInput>;
  /** Place it just before this space. */
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

/** Conditions on the teams listed, all of which must hold. */
export type TeamFilter = {
  /** Only teams created after this time (ISO 8601). Format date-time; may be null. */
  createdAfter?: InputMaybe<Scalars['String']['input']>;
  /** Only teams created before this time (ISO 8601). Format date-time; may be null. */
  createdBefore?: InputMaybe<Scalars['String']['input']>;
  /** Only teams whose title contains this text, ignoring case. 1..256 characters; may be null. */
  titleContains?: InputMaybe<Scalars['String']['input']>;
};

/** A team member's role. */
export type TeamMemberInput = {
  /** Their role in the team; omitted: member for a new one, else unchanged. One of "owner", "member". */
  role?: InputMaybe<TeamMemberRole>;
};

/** A member's role in a team. */
export type TeamMemberRole =
  /** Belongs to the team, and gets the team's grants on spaces. */
  | 'member'
  /** Manages the team: its title and members. */
  | 'owner';

/** One sort key of teams. */
export type TeamOrder = {
  /** Ascending or descending. */
  direction: OrderDirection;
  /** The field to sort by. */
  field: TeamOrderField;
};

/** A field teams sort by. */
export type TeamOrderField =
  /** When it was created. */
  | 'CREATED_AT'
  /** Its title, in the database's text order. */
  | 'TITLE';

/** The organization to move a space to. */
export type TransferSpaceInput = {
  /** Id of the organization to move it to; the caller must be admin there. Not empty. */
  organization: Scalars['ID']['input'];
};

/** Conditions on the translations listed, all of which must hold. */
export type TranslationFilter = {
  /** Only translations created after this time (ISO 8601). Format date-time; may be null. */
  createdAfter?: InputMaybe<Scalars['String']['input']>;
  /** Only translations created before this time (ISO 8601). Format date-time; may be null. */
  createdBefore?: InputMaybe<Scalars['String']['input']>;
  /** Only translations into this language. One of "en", "fr", "de", "es", "it", "pt", "pt-br", "ru", "ja", "zh", "yue", "ko", "ar", "hi", "nl", "pl", "tr", "sv", "no", "da", "fi", "el", "cs", "hu", "ro", "th", "vi", "id", "ms", "he", "uk", "sk", "bg", "hr", "lt", "lv", "et", "sl"; may be null. */
  language?: InputMaybe<Scalars['String']['input']>;
  /** Only translations in this state. One of "pending", "running", "completed", "failed"; may be null. */
  status?: InputMaybe<Scalars['String']['input']>;
  /** Only translations last changed after this time (ISO 8601). Format date-time; may be null. */
  updatedAfter?: InputMaybe<Scalars['String']['input']>;
  /** Only translations last changed before this time (ISO 8601). Format date-time; may be null. */
  updatedBefore?: InputMaybe<Scalars['String']['input']>;
};

/** One sort key of translations. */
export type TranslationOrder = {
  /** Ascending or descending. */
  direction: OrderDirection;
  /** The field to sort by. */
  field: TranslationOrderField;
};

/** A field translations sort by. */
export type TranslationOrderField =
  /** When it was created. */
  | 'CREATED_AT'
  /** When it was last changed. */
  | 'UPDATED_AT';

/** The space to translate. */
export type TranslationSourceInput = {
  /** The language the space is written in. One of "en", "fr", "de", "es", "it", "pt", "pt-br", "ru", "ja", "zh", "yue", "ko", "ar", "hi", "nl", "pl", "tr", "sv", "no", "da", "fi", "el", "cs", "hu", "ro", "th", "vi", "id", "ms", "he", "uk", "sk", "bg", "hr", "lt", "lv", "et", "sl". */
  language: Scalars['String']['input'];
  /** Id of the space to translate, in the organization. Not empty. */
  space: Scalars['ID']['input'];
};

/** An organization's new agent instructions. */
export type UpdateAgentInstructionsInput = {
  /** The instructions as a document: `{ "object": "document", "nodes": [...], "data"?: {...} }`; replaces them. */
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

/** A member's new role. */
export type UpdateMemberInput = {
  /** The member's organization role; null makes them a guest. One of "admin", "create", "review", "edit", "comment", "read"; may be null. */
  role?: InputMaybe<Role>;
};

/** Changes to a spec. */
export type UpdateOpenApiSpecInput = {
  /** public: the versions' sources are readable without a token; private: organization members only. One of "private", "public". */
  visibility: OpenApiSpecVisibility;
};

/** Changes to an organization's settings; omitted fields stay as they are. */
export type UpdateOrganizationInput = {
  /** Whether AI features are on. */
  ai?: InputMaybe<Scalars['Boolean']['input']>;
  /** `{ "type": "site", "site": <site id> }` or null to clear it; no site is accepted as the default yet. May be null. */
  defaultContent?: InputMaybe<Scalars['JSON']['input']>;
  /** The role of members who join by email domain; null: they join as guests. One of "admin", "create", "review", "edit", "comment", "read"; may be null. */
  defaultRole?: InputMaybe<Role>;
  /** Email domains (such as example.com) whose verified users may join it themselves; replaces the list. At most 100 items. */
  emailDomains?: InputMaybe<Array<Scalars['String']['input']>>;
  /** Its unique hostname label: lowercase letters, digits and inner hyphens (a CONFLICT error when taken). 3..32 characters; matching /^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$/. */
  hostname?: InputMaybe<Scalars['String']['input']>;
  /** Whether invite links may be used to join. */
  inviteLinks?: InputMaybe<Scalars['Boolean']['input']>;
  /** URL of its logo; null removes it. At most 2048 characters; format uri; may be null. */
  logo?: InputMaybe<Scalars['String']['input']>;
  /** What change requests need to merge in spaces that inherit: `{type: none}` or `{type: rules, rules: [{rule, users?}]}` (not inherit); users named must be members. */
  mergeRules?: InputMaybe<Scalars['JSON']['input']>;
  /** Whether members must sign in through the organization's SAML provider. */
  sso?: InputMaybe<Scalars['Boolean']['input']>;
  /** The organization's name, without leading or trailing spaces. 2..255 characters; matching /^\S(.*\S)?$/. */
  title?: InputMaybe<Scalars['String']['input']>;
};

/** Changes to a SAML provider; omitted fields stay as they are. */
export type UpdateSamlProviderInput = {
  /** The identity provider's signing certificate, PEM X.509 (-----BEGIN CERTIFICATE----- ...). At most 10000 characters. */
  certificate?: InputMaybe<Scalars['String']['input']>;
  /** The organization role of new SSO members; null makes them guests. One of "admin", "create", "review", "edit", "comment", "read"; may be null. */
  defaultRole?: InputMaybe<Role>;
  /** Id of a team of the organization that new SSO members join; null: none. Not empty; may be null. */
  defaultTeam?: InputMaybe<Scalars['ID']['input']>;
  /** The identity provider's entity id, trimmed. 1..1024 characters. */
  entityID?: InputMaybe<Scalars['String']['input']>;
  /** The name members see on the sign-in page, trimmed. 1..30 characters. */
  label?: InputMaybe<Scalars['String']['input']>;
  /** The identity provider's login URL (http or https). At most 2048 characters; format uri. */
  ssoURL?: InputMaybe<Scalars['String']['input']>;
};

/** A site's new adaptive schema. */
export type UpdateSiteAdaptiveSchemaInput = {
  /** A draft-07 object schema whose properties are boolean visitor claims (each with a description, at most 100; names of up to 64 letters, digits or _), with an optional `unsigned` object of such claims; replaces the previous schema. */
  jsonSchema: Scalars['JSON']['input'];
};

/** Changes to a site's settings; omitted fields stay as they are. */
export type UpdateSiteInput = {
  /** Adaptive content settings. */
  adaptiveContent?: InputMaybe<SiteAdaptiveContentInput>;
  /** Whether the site's content is offered to AI agents as context. One of "excluded", "included". */
  agentsContext?: InputMaybe<Scalars['String']['input']>;
  /** The path the site is served under on its host. 1..100 characters. */
  basename?: InputMaybe<Scalars['String']['input']>;
  /** Id of the section visitors land on: one of this site's. Not empty. */
  defaultSiteSection?: InputMaybe<Scalars['ID']['input']>;
  /** Id of the site space visitors land on: one at the site root, or in the default section when the site has sections. Not empty. */
  defaultSiteSpace?: InputMaybe<Scalars['ID']['input']>;
  /** Host and path to serve the site under, e.g. company.com/docs; null removes the proxy. At most 512 characters; matching /^([\w-]+\.)*[\w-]+\.[a-zA-Z]{2,}(\/[\w-]+)+$/; may be null. */
  proxy?: InputMaybe<Scalars['String']['input']>;
  /** The site's title, trimmed. 2..128 characters. */
  title?: InputMaybe<Scalars['String']['input']>;
  /** Who may read the published site. One of "public", "unlisted", "share-link", "visitor-auth". */
  visibility?: InputMaybe<Scalars['String']['input']>;
};

/** Changes to a section group; omitted fields stay as they are. */
export type UpdateSiteSectionGroupInput = {
  /** Icon name; null removes it. 1..50 characters; may be null. */
  icon?: InputMaybe<Scalars['String']['input']>;
  /** The group's title. 1..100 characters. */
  title?: InputMaybe<Scalars['String']['input']>;
};

/** Changes to a section; omitted fields stay as they are. */
export type UpdateSiteSectionInput = {
  /** Expression over `visitor.claims` that must hold for a visitor to see the section; null or blank removes it. At most 1024 characters; may be null. */
  condition?: InputMaybe<Scalars['String']['input']>;
  /** Id of the site space visitors land on: one of this section's. Not empty. */
  defaultSiteSpace?: InputMaybe<Scalars['ID']['input']>;
  /** Short description shown with the section; null removes it. At most 256 characters; may be null. */
  description?: InputMaybe<Scalars['String']['input']>;
  /** Icon name; null removes it. 1..50 characters; may be null. */
  icon?: InputMaybe<Scalars['String']['input']>;
  /** The section's URL path; unique among the site's sections (a CONFLICT error when taken). 1..100 characters; matching /^[A-Za-z0-9][A-Za-z0-9._~-]*$/. */
  path?: InputMaybe<Scalars['String']['input']>;
  /** The section's title, trimmed. 2..128 characters. */
  title?: InputMaybe<Scalars['String']['input']>;
};

/** Changes to a share link: give `name`, `active` or both. */
export type UpdateSiteShareLinkInput = {
  /** false revokes the link: its key opens nothing any more; true restores it. */
  active?: InputMaybe<Scalars['Boolean']['input']>;
  /** A name for the link, trimmed. At most 50 characters. */
  name?: InputMaybe<Scalars['String']['input']>;
};

/** Changes to a site space; omitted fields stay as they are. */
export type UpdateSiteSpaceInput = {
  /** Expression over `visitor.claims` that must hold for a visitor to see the site space; null or blank removes it. At most 1024 characters; may be null. */
  condition?: InputMaybe<Scalars['String']['input']>;
  /** The site space's URL path; unique in its scope (section or root; a CONFLICT error when taken). 1..100 characters; matching /^[A-Za-z0-9][A-Za-z0-9._~-]*$/. */
  path?: InputMaybe<Scalars['String']['input']>;
  /** Id of another space of the organization to show instead. Not empty. */
  spaceId?: InputMaybe<Scalars['ID']['input']>;
};

/** Changes to a space's settings; omitted fields stay as they are. */
export type UpdateSpaceInput = {
  /** The role every organization member gets on the space, capped at their organization role; null: only explicit grants give access. One of "admin", "create", "review", "edit", "comment", "read"; may be null. */
  defaultLevel?: InputMaybe<Role>;
  /** Whether its content may be edited. One of "live", "locked". */
  editMode?: InputMaybe<SpaceEditMode>;
  /** An emoji shown with the title; null removes it. At most 50 characters; may be null. */
  emoji?: InputMaybe<Scalars['String']['input']>;
  /** The content's language code; null removes it. One of "en", "fr", "de", "es", "it", "pt", "pt-br", "ru", "ja", "zh", "yue", "ko", "ar", "hi", "nl", "pl", "tr", "sv", "no", "da", "fi", "el", "cs", "hu", "ro", "th", "vi", "id", "ms", "he", "uk", "sk", "bg", "hr", "lt", "lv", "et", "sl"; may be null. */
  language?: InputMaybe<Scalars['String']['input']>;
  /** What a change request needs to merge: `{type: inherit}` (the organization's), `{type: none}` or `{type: rules, rules: [{rule, users?}]}`; users named must be members of the organization. */
  mergeRules?: InputMaybe<Scalars['JSON']['input']>;
  /** The space's title, trimmed. 1..50 characters. */
  title?: InputMaybe<Scalars['String']['input']>;
};

/** Changes to a team. */
export type UpdateTeamInput = {
  /** The team's title, trimmed. 1..64 characters. */
  title?: InputMaybe<Scalars['String']['input']>;
};

/** Members to add, remove and re-role, in one change. */
export type UpdateTeamMembersInput = {
  /** Members to add (role member), each a user id or an email of an organization member. At most 1000 items. */
  add?: InputMaybe<Array<Scalars['String']['input']>>;
  /** Roles to set: a map of user id or email to `{ "role": "owner" | "member" }`; adds those not in the team yet. */
  memberships?: InputMaybe<Scalars['JSON']['input']>;
  /** Members to remove, each a user id or an email; wins over add. At most 1000 items. */
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

export type SiteSpaceItemFragment = { id: string, title: string, path: string, section: string | null, space: { id: string, title: string } | null };

export type OrganizationSitesQueryVariables = Exact<{
  organizationId: string | number;
  first?: number | null | undefined;
  after?: string | null | undefined;
  last?: number | null | undefined;
  before?: string | null | undefined;
  title?: string | null | undefined;
  published?: boolean | null | undefined;
}>;


export type OrganizationSitesQuery = { organization: { id: string, title: string, sites: { totalCount: number, pageInfo: { hasNextPage: boolean, hasPreviousPage: boolean, startCursor: string | null, endCursor: string | null }, nodes: Array<{ id: string, title: string, published: boolean, siteSpaceCount: number }> } } | null };

export type SiteSectionsQueryVariables = Exact<{
  organizationId: string | number;
  siteId: string | number;
}>;


export type SiteSectionsQuery = { organization: { id: string, spaces: { nodes: Array<{ id: string, title: string }> }, site: { id: string, title: string, sections: { nodes: Array<{ id: string, title: string, path: string, siteSpaces: Array<{ id: string, title: string, path: string, section: string | null, space: { id: string, title: string } | null }> }> }, siteSpaces: { nodes: Array<{ id: string, title: string, path: string, section: string | null, space: { id: string, title: string } | null }> } } | null } | null };

export type AddSpaceToSiteMutationVariables = Exact<{
  organizationId: string | number;
  siteId: string | number;
  spaceId: string | number;
  sectionId?: string | number | null | undefined;
}>;


export type AddSpaceToSiteMutation = { addSpaceToSite: { id: string, title: string, path: string, section: string | null, space: { id: string, title: string } | null } | null };

export type DeleteSiteSpaceMutationVariables = Exact<{
  organizationId: string | number;
  siteId: string | number;
  siteSpaceId: string | number;
}>;


export type DeleteSiteSpaceMutation = { deleteSiteSpaceById: boolean | null };

export const SiteSpaceItemFragmentDoc = {"kind":"Document","definitions":[{"kind":"FragmentDefinition","name":{"kind":"Name","value":"SiteSpaceItem"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"SiteSpace"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"title"}},{"kind":"Field","name":{"kind":"Name","value":"path"}},{"kind":"Field","name":{"kind":"Name","value":"section"}},{"kind":"Field","name":{"kind":"Name","value":"space"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"title"}}]}}]}}]} as unknown as DocumentNode;
export const ViewerDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"Viewer"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"viewer"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"user"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"displayName"}},{"kind":"Field","name":{"kind":"Name","value":"email"}}]}}]}}]}}]} as unknown as DocumentNode;
export const OrganizationsDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"Organizations"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"first"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"after"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"organizations"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"Variable","name":{"kind":"Name","value":"first"}}},{"kind":"Argument","name":{"kind":"Name","value":"after"},"value":{"kind":"Variable","name":{"kind":"Name","value":"after"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"totalCount"}},{"kind":"Field","name":{"kind":"Name","value":"pageInfo"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"hasNextPage"}},{"kind":"Field","name":{"kind":"Name","value":"endCursor"}}]}},{"kind":"Field","name":{"kind":"Name","value":"nodes"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"title"}}]}}]}}]}}]} as unknown as DocumentNode;
export const SiteStructureDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"SiteStructure"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"organizationId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"organization"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"organizationId"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"title"}},{"kind":"Field","name":{"kind":"Name","value":"sites"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"IntValue","value":"100"}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"nodes"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"title"}},{"kind":"Field","name":{"kind":"Name","value":"published"}},{"kind":"Field","name":{"kind":"Name","value":"sections"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"IntValue","value":"100"}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"nodes"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"title"}},{"kind":"Field","name":{"kind":"Name","value":"siteSpaces"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"path"}},{"kind":"Field","name":{"kind":"Name","value":"title"}},{"kind":"Field","name":{"kind":"Name","value":"space"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"title"}}]}}]}}]}}]}},{"kind":"Field","name":{"kind":"Name","value":"siteSpaces"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"IntValue","value":"100"}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"totalCount"}},{"kind":"Field","name":{"kind":"Name","value":"nodes"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"path"}},{"kind":"Field","name":{"kind":"Name","value":"space"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"title"}}]}}]}}]}}]}}]}}]}}]}}]} as unknown as DocumentNode;
export const OrganizationSitesDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"OrganizationSites"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"organizationId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"first"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"after"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"last"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"before"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"title"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"published"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Boolean"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"organization"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"organizationId"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"title"}},{"kind":"Field","name":{"kind":"Name","value":"sites"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"Variable","name":{"kind":"Name","value":"first"}}},{"kind":"Argument","name":{"kind":"Name","value":"after"},"value":{"kind":"Variable","name":{"kind":"Name","value":"after"}}},{"kind":"Argument","name":{"kind":"Name","value":"last"},"value":{"kind":"Variable","name":{"kind":"Name","value":"last"}}},{"kind":"Argument","name":{"kind":"Name","value":"before"},"value":{"kind":"Variable","name":{"kind":"Name","value":"before"}}},{"kind":"Argument","name":{"kind":"Name","value":"title"},"value":{"kind":"Variable","name":{"kind":"Name","value":"title"}}},{"kind":"Argument","name":{"kind":"Name","value":"published"},"value":{"kind":"Variable","name":{"kind":"Name","value":"published"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"totalCount"}},{"kind":"Field","name":{"kind":"Name","value":"pageInfo"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"hasNextPage"}},{"kind":"Field","name":{"kind":"Name","value":"hasPreviousPage"}},{"kind":"Field","name":{"kind":"Name","value":"startCursor"}},{"kind":"Field","name":{"kind":"Name","value":"endCursor"}}]}},{"kind":"Field","name":{"kind":"Name","value":"nodes"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"title"}},{"kind":"Field","name":{"kind":"Name","value":"published"}},{"kind":"Field","name":{"kind":"Name","value":"siteSpaceCount"}}]}}]}}]}}]}}]} as unknown as DocumentNode;
export const SiteSectionsDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"SiteSections"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"organizationId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"siteId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"organization"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"organizationId"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"spaces"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"IntValue","value":"100"}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"nodes"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"title"}}]}}]}},{"kind":"Field","name":{"kind":"Name","value":"site"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"siteId"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"title"}},{"kind":"Field","name":{"kind":"Name","value":"sections"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"IntValue","value":"100"}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"nodes"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"title"}},{"kind":"Field","name":{"kind":"Name","value":"path"}},{"kind":"Field","name":{"kind":"Name","value":"siteSpaces"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"SiteSpaceItem"}}]}}]}}]}},{"kind":"Field","name":{"kind":"Name","value":"siteSpaces"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"IntValue","value":"100"}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"nodes"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"SiteSpaceItem"}}]}}]}}]}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"SiteSpaceItem"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"SiteSpace"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"title"}},{"kind":"Field","name":{"kind":"Name","value":"path"}},{"kind":"Field","name":{"kind":"Name","value":"section"}},{"kind":"Field","name":{"kind":"Name","value":"space"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"title"}}]}}]}}]} as unknown as DocumentNode;
export const AddSpaceToSiteDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"AddSpaceToSite"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"organizationId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"siteId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"spaceId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"sectionId"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"addSpaceToSite"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"organizationId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"organizationId"}}},{"kind":"Argument","name":{"kind":"Name","value":"siteId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"siteId"}}},{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"ObjectValue","fields":[{"kind":"ObjectField","name":{"kind":"Name","value":"spaceId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"spaceId"}}},{"kind":"ObjectField","name":{"kind":"Name","value":"sectionId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"sectionId"}}}]}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"SiteSpaceItem"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"SiteSpaceItem"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"SiteSpace"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"title"}},{"kind":"Field","name":{"kind":"Name","value":"path"}},{"kind":"Field","name":{"kind":"Name","value":"section"}},{"kind":"Field","name":{"kind":"Name","value":"space"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"title"}}]}}]}}]} as unknown as DocumentNode;
export const DeleteSiteSpaceDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"DeleteSiteSpace"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"organizationId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"siteId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"siteSpaceId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"deleteSiteSpaceById"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"organizationId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"organizationId"}}},{"kind":"Argument","name":{"kind":"Name","value":"siteId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"siteId"}}},{"kind":"Argument","name":{"kind":"Name","value":"siteSpaceId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"siteSpaceId"}}}]}]}}]} as unknown as DocumentNode;

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
    },
    OrganizationSites(variables: OrganizationSitesQueryVariables, requestHeaders?: GraphQLClientRequestHeaders, signal?: RequestInit['signal']): Promise<OrganizationSitesQuery> {
      return withWrapper((wrappedRequestHeaders) => client.request<OrganizationSitesQuery>({ document: OrganizationSitesDocument, variables, requestHeaders: { ...requestHeaders, ...wrappedRequestHeaders }, signal }), 'OrganizationSites', 'query', variables);
    },
    SiteSections(variables: SiteSectionsQueryVariables, requestHeaders?: GraphQLClientRequestHeaders, signal?: RequestInit['signal']): Promise<SiteSectionsQuery> {
      return withWrapper((wrappedRequestHeaders) => client.request<SiteSectionsQuery>({ document: SiteSectionsDocument, variables, requestHeaders: { ...requestHeaders, ...wrappedRequestHeaders }, signal }), 'SiteSections', 'query', variables);
    },
    AddSpaceToSite(variables: AddSpaceToSiteMutationVariables, requestHeaders?: GraphQLClientRequestHeaders, signal?: RequestInit['signal']): Promise<AddSpaceToSiteMutation> {
      return withWrapper((wrappedRequestHeaders) => client.request<AddSpaceToSiteMutation>({ document: AddSpaceToSiteDocument, variables, requestHeaders: { ...requestHeaders, ...wrappedRequestHeaders }, signal }), 'AddSpaceToSite', 'mutation', variables);
    },
    DeleteSiteSpace(variables: DeleteSiteSpaceMutationVariables, requestHeaders?: GraphQLClientRequestHeaders, signal?: RequestInit['signal']): Promise<DeleteSiteSpaceMutation> {
      return withWrapper((wrappedRequestHeaders) => client.request<DeleteSiteSpaceMutation>({ document: DeleteSiteSpaceDocument, variables, requestHeaders: { ...requestHeaders, ...wrappedRequestHeaders }, signal }), 'DeleteSiteSpace', 'mutation', variables);
    }
  };
}
export type Sdk = ReturnType<typeof getSdk>;