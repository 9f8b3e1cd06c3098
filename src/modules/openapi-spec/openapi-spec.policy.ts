import { type OrganizationPolicy, organizationRole } from "../../auth/policy.ts";
import type { OpenAPISpec } from "../../db/generated/client.ts";

/* Who may see and change OpenAPI specs (access.md: view with read, edit and create with the create role). */

export const canReadSpecs: OrganizationPolicy = organizationRole("read");

/** Creating, updating, deleting a spec and adding versions; also the spec's `permissions.edit`. */
export const canEditSpecs: OrganizationPolicy = organizationRole("create");

/**
 * Whether a spec's version sources are anyone's, without a token (a public spec), so no viewer is read; the others'
 * need `canReadSpecs`.
 */
export function sourcesOpenToAnyone(spec: Pick<OpenAPISpec, "visibility">): boolean {
  return spec.visibility === "public";
}
