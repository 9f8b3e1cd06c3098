import { allow, type Decision, forbid, hide, type OrganizationPolicy, organizationRole } from "../../auth/policy.ts";
import { hasRole, highestRole, roleRank } from "../../auth/roles.ts";
import type { Member, Role, Space } from "../../db/generated/client.ts";

/*
 * Who may do what with a space (access.md): the effective role from facts already read, the decisions services
 * enforce, and the `permissions` booleans. Pure: space.access.ts reads the facts.
 */

/** A default level gives a member at most their organization role. */
function capRole(level: Role | null | undefined, organizationRole: Role | null | undefined): Role | null {
  if (!level || !organizationRole) return null;
  return roleRank(level) <= roleRank(organizationRole) ? level : organizationRole;
}

/** The collection whose default level also opens the space: its parent, when the space is `in-collection`. */
export function openingCollection(space: Pick<Space, "visibility" | "parentId">): string | null {
  return space.visibility === "in-collection" ? space.parentId : null;
}

/** What decides a viewer's role on a space, read by `effectiveRole` and enumerated by the unit tests. */
export interface SpaceRoleFacts {
  /** The viewer's membership of the space's organization; null when not a member. */
  membership: Pick<Member, "role" | "disabled"> | null;
  space: Pick<Space, "visibility" | "defaultLevel" | "parentId">;
  /** The default level of the space's parent collection; it counts only for `in-collection` spaces. */
  collectionDefaultLevel: Role | null;
  /** The viewer's highest explicit grant on the space, user or team; read only when `grantsMatter`. */
  grant: Role | null;
}

/**
 * Whether the viewer's grants and the parent collection can change their role: only for enabled members below
 * organization admin, so `effectiveRole` reads them for no one else.
 */
export function grantsMatter(membership: SpaceRoleFacts["membership"]): boolean {
  return Boolean(membership && !membership.disabled && membership.role !== "admin");
}

/** The effective role on a space (access.md), from facts already read: the one decision `visibleSpacesWhere` mirrors. */
export function roleFromGrants({ membership, space, collectionDefaultLevel, grant }: SpaceRoleFacts): Role | null {
  // Public and unlisted content is readable by anyone signed in, members included.
  const openRead: Role | null = space.visibility === "public" || space.visibility === "unlisted" ? "read" : null;
  if (!membership || membership.disabled) return openRead;
  // Nothing ranks above an organization admin.
  if (membership.role === "admin") return "admin";
  const defaultLevel = highestRole(space.defaultLevel, openingCollection(space) ? collectionDefaultLevel : null);
  return highestRole(grant, capRole(defaultLevel, membership.role), openRead);
}

export interface SpacePermissions {
  view: boolean;
  access: boolean;
  comment: boolean;
  edit: boolean;
  review: boolean;
  merge: boolean;
  triggerGitSync: boolean;
  viewInviteLinks: boolean;
  admin: boolean;
  installIntegration: boolean;
}

/** The `permissions` booleans of access.md, from the viewer's effective role. */
export function spacePermissionsFor(space: Pick<Space, "editMode">, role: Role | null): SpacePermissions {
  return {
    view: hasRole(role, "read"),
    access: hasRole(role, "read"),
    comment: hasRole(role, "comment"),
    edit: hasRole(role, "edit") && space.editMode !== "locked",
    review: hasRole(role, "review"),
    merge: hasRole(role, "review"),
    triggerGitSync: hasRole(role, "create"),
    viewInviteLinks: hasRole(role, "create"),
    admin: hasRole(role, "admin"),
    installIntegration: hasRole(role, "admin"),
  };
}

/** The space's role rule: hidden (404) from a viewer with no role on it, refused (403) below `least`. */
export function spaceRoleAtLeast(role: Role | null, space: Pick<Space, "id">, least: Role): Decision {
  if (!role) return hide(`Space ${space.id} not found`);
  return hasRole(role, least) ? allow : forbid(`This operation needs the ${least} role on the space`);
}

/** Content edits: `edit` on the space, and the space not locked. */
export function canEditSpaceContent(role: Role | null, space: Pick<Space, "id" | "editMode">): Decision {
  const edit = spaceRoleAtLeast(role, space, "edit");
  if (!edit.allowed) return edit;
  return space.editMode === "locked" ? forbid("The space is locked: its content cannot be edited") : edit;
}

/** Creating spaces and collections, and duplicating a space into its organization (organization create). */
export const canCreateSpaces: OrganizationPolicy = organizationRole("create");

/** An organization's collections, and the spaces a member reaches. */
export const canListCollections: OrganizationPolicy = organizationRole("read");

/** Transfer: organization admin of the space's organization, and of the one it goes to (checked for each). */
export const canTransferSpace: OrganizationPolicy = organizationRole("admin");

/** How long a deleted space stays restorable before the purge job removes it (7 days). */
export const spaceRetentionMs = 7 * 24 * 60 * 60 * 1000;

/** Restore: admin of the space, deleted or not; a space past its retention is gone for everyone (404). */
export function canRestoreSpace(role: Role | null, space: Pick<Space, "id" | "deletedAt">, now: Date): Decision {
  const expired = space.deletedAt !== null && now.getTime() - space.deletedAt.getTime() > spaceRetentionMs;
  if (!role || expired) return hide(`Space ${space.id} not found`);
  return spaceRoleAtLeast(role, space, "admin");
}

/** Who creates or duplicates a space receives an explicit admin grant on it, so reads what the write returns. */
export function creatorReadsSpace(space: Pick<Space, "id">): Decision {
  return spaceRoleAtLeast("admin", space, "read");
}
