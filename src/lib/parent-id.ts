import { NotFoundError } from "./errors.ts";

/** How `parentIdOf` finds the parent of an object named by its own id, and what a caller who may not see it gets. */
interface OwnParent {
  /** The object's parent id; null or undefined when there is no such object. */
  own: () => Promise<string | null | undefined>;
  /** Refuses (throws) unless the caller may see the object under that parent: the read check of its node. */
  visible: (parentId: string) => Promise<unknown>;
  /** The object's not-found message. */
  notFound: string;
}

/**
 * The parent id of the object a mutation acts on, which the caller may leave out since the object's own id names
 * it: a component holding the object can call its mutations. Given: it is used as is, as REST paths always pass it;
 * one that is not the object's parent answers the not-found it always did. Omitted: the object's own parent, when
 * the caller may see the object. Any not-found on the way becomes the object's own, so an id from another tenant
 * tells nothing, not even its parent's id.
 */
export async function parentIdOf(given: string | null | undefined, how: OwnParent): Promise<string> {
  if (given) return given;
  try {
    const parentId = await how.own();
    if (!parentId) throw new NotFoundError(how.notFound);
    await how.visible(parentId);
    return parentId;
  } catch (error) {
    throw error instanceof NotFoundError ? new NotFoundError(how.notFound) : error;
  }
}
