import { builder } from "../../../src/graphql/builder.ts";
import { type Notice, readNotice } from "./notice.service.ts";

const NoticeRef = builder.objectRef<Notice>("Notice").implement({
  description: "An organization's welcome notice (the module manifest's test fixture).",
  extensions: { restObjectName: "notice" },
  fields: (t) => ({
    id: t.id({ description: "The notice's id.", resolve: (notice) => `notice_${notice.organizationId}` }),
    text: t.exposeString("text", { description: "What members read first." }),
  }),
});

builder.queryField("organizationNotice", (t) =>
  t.field({
    type: NoticeRef,
    description: "The organization's welcome notice (getOrganizationNotice).",
    args: { organizationId: t.arg.id({ required: true, description: "The organization's id." }) },
    resolve: (_root, args, ctx) => readNotice(ctx, String(args.organizationId)),
  }),
);
