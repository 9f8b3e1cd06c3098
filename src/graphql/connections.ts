import { builder } from "./builder.ts";

// Every connection reports the size of the whole list; REST shows it as the envelope's `count`.
builder.globalConnectionField("totalCount", (t) =>
  t.int({
    description: "Number of items in the whole list.",
    resolve: ({ totalCount }) => (typeof totalCount === "number" ? totalCount : totalCount()),
  }),
);
