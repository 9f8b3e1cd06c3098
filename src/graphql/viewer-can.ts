import type { RequestContext } from "../request/context.ts";
import type { BuilderTypes } from "./builder.ts";

/** A node's permissions for the viewer, as its module's access rules compute them (at once or from its loaders). */
type Compute<Parent, Permissions> = (parent: Parent, ctx: RequestContext) => Permissions | Promise<Permissions>;

/**
 * The viewer's permissions as boolean fields of the node itself (GitHub's `viewerCan*`), each one of the booleans
 * `compute` answers: a normalized cache stores them with the node, so a wider selection after a narrower one is
 * answered from it, and no cache needs a key for a permissions object. `fields` maps each field's name to the
 * permission it answers and its description.
 */
export function viewerCanFields<Parent, Permissions extends object>(
  t: PothosSchemaTypes.ObjectFieldBuilder<BuilderTypes, Parent>,
  compute: Compute<Parent, Permissions>,
  fields: Record<string, readonly [keyof Permissions & string, string]>,
) {
  return Object.fromEntries(
    Object.entries(fields).map(([name, [permission, description]]) => [
      name,
      t.boolean({
        description,
        resolve: (parent, _args, ctx) => {
          // At once when the permissions are: a page of 1,000 spaces settles their roles without a promise each.
          const permissions = compute(parent, ctx);
          return permissions instanceof Promise
            ? permissions.then((settled) => Boolean(settled[permission]))
            : Boolean(permissions[permission]);
        },
      }),
    ]),
  );
}
