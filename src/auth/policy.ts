import type { Member, Role } from "../db/generated/client.ts";
import { ForbiddenError, NotFoundError } from "../lib/errors.ts";
import { hasRole } from "./roles.ts";

/*
 * What every `<resource>.policy.ts` decides with, and the one helper that turns a decision into the thrown error
 * (`enforce`). Policies are pure: (facts about the viewer, facts about the object) -> decision, so unit tests
 * enumerate them; `authorize.ts` reads the facts and applies them.
 */

/** A refusal: 403 when the caller may see the object but not act on it, 404 when they may not see it (access.md). */
export interface Denied {
  allowed: false;
  error: "forbidden" | "not-found";
  message: string;
}

export type Decision = { allowed: true } | Denied;

export const allow: Decision = { allowed: true };

export function forbid(message: string): Denied {
  return { allowed: false, error: "forbidden", message };
}

export function hide(message: string): Denied {
  return { allowed: false, error: "not-found", message };
}

/** Throws the error a refusal answers with; an allowed decision passes. */
export function enforce(decision: Decision): void {
  if (decision.allowed) return;
  throw decision.error === "forbidden" ? new ForbiddenError(decision.message) : new NotFoundError(decision.message);
}

/** The viewer as an organization's policies see them: their membership, null when not a member. */
export type OrganizationViewer = Pick<Member, "role" | "disabled"> | null;

/** The organization a decision is about (its id names it in the 404). */
export interface OrganizationFacts {
  id: string;
}

/** Non-members and disabled members do not see the organization (404); any enabled member, guests included, does. */
export function organizationMember(viewer: OrganizationViewer, organization: OrganizationFacts): Decision {
  return !viewer || viewer.disabled ? hide(`Organization ${organization.id} not found`) : allow;
}

/**
 * The organization-role rule of access.md: the organization hidden from non-members (404), and members below
 * `least`, guests included, refused (403).
 */
export function organizationRoleAtLeast(
  viewer: OrganizationViewer,
  organization: OrganizationFacts,
  least: Role,
): Decision {
  const seen = organizationMember(viewer, organization);
  if (!seen.allowed) return seen;
  return hasRole(viewer?.role, least) ? allow : forbid(`This operation needs the ${least} role in the organization`);
}

export type OrganizationPolicy = (viewer: OrganizationViewer, organization: OrganizationFacts) => Decision;

/** The policy of an action open to the organization's members with at least `least` (`organizationRoleAtLeast`). */
export function organizationRole(least: Role): OrganizationPolicy {
  return (viewer, organization) => organizationRoleAtLeast(viewer, organization, least);
}
