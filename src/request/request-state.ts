import type { RequestContext } from "./context.ts";

/**
 * Declares a kind of per-request state (a DataLoader, what a list settled for its rows, a read boundary): the
 * returned function gives the request's instance, created on first use. The one place requests keep state, so a
 * subscription's `freshlyLoaded` forgets all of it at once. Names are unique per kind: a definition made again under
 * the same name (a loader per list order) shares the request's instance.
 */
export function definePerRequest<State>(
  name: string,
  create: (ctx: RequestContext) => State,
): (ctx: RequestContext) => State {
  return (ctx) => {
    let state = ctx.state.get(name) as State | undefined;
    if (state === undefined) {
      state = create(ctx);
      ctx.state.set(name, state);
    }
    return state;
  };
}
