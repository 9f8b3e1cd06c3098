import { builder } from "../../graphql/builder.ts";
import { publicEnum } from "../../graphql/enums.ts";
import { describeInputField } from "../../graphql/input-description.ts";
import { describeMutation, payloadType } from "../../graphql/payload.ts";
import { checkedByService } from "../../graphql/service-check.ts";
import { PageTypeEnum, RevisionRef } from "./content.graphql.ts";
import { type ContentEdit, revisionOf, updateSpaceContent } from "./content.service.ts";
import { contentChangesSchema, fileUploadSchema, pageFieldsSchema, positionSchema } from "./content-state.ts";

export const ContentEditRef = builder.objectRef<ContentEdit>("ContentEdit").implement({
  description: "The revision a batch of content changes made, and the ids of what it inserted.",
  fields: (t) => ({
    revisionId: t.exposeID("revision", { description: "Id of the new revision (the id of `revision`)." }),
    revision: t.field({
      type: RevisionRef,
      description: "The new revision.",
      resolve: (edit, _args, ctx) => revisionOf(ctx, edit.revision),
    }),
    result: t.exposeString("result", { description: "Always edits: the revision holds direct edits." }),
    inserted: t.field({
      type: [
        builder.objectRef<ContentEdit["inserted"][number]>("InsertedContent").implement({
          description: "A page or a file an insert change made.",
          fields: (i) => ({
            type: i.exposeString("type", { description: "page or file." }),
            contentId: i.exposeID("id", { description: "Id of the new page (its `pageId`) or file (its `fileId`)." }),
          }),
        }),
      ],
      description: "What the insert changes made, in the order of the changes.",
      resolve: (edit) => edit.inserted,
    }),
  }),
});

const PagePositionInput = builder.inputType("PagePositionInput", {
  description: "A place among the page's siblings: just before or just after one of them.",
  fields: (t) => ({
    before: t.id({ description: describeInputField(positionSchema, "before") }),
    after: t.id({ description: describeInputField(positionSchema, "after") }),
  }),
});

const page = (key: string) => describeInputField(pageFieldsSchema, key);

const PageChangeInput = builder.inputType("PageChangeInput", {
  description: "Page fields; an insert needs a title, an update sets only the fields it names.",
  fields: (t) => ({
    title: t.string({ description: page("title") }),
    type: t.field({
      type: PageTypeEnum,
      description: page("type"),
      // The service checks each change as one of its shapes, and words a bad page type as a bad change.
      extensions: checkedByService(contentChangesSchema, 4),
    }),
    emoji: t.string({ description: page("emoji") }),
    slug: t.string({ description: page("slug") }),
    description: t.string({ description: page("description") }),
    markdown: t.string({ description: page("markdown") }),
    layout: t.field({ type: "JSON", description: page("layout") }),
    cover: t.field({ type: "JSON", description: page("cover") }),
    hidden: t.boolean({ description: page("hidden") }),
    noIndex: t.boolean({ description: page("noIndex") }),
    noRobotsIndex: t.boolean({ description: page("noRobotsIndex") }),
    variables: t.field({ type: "JSON", description: page("variables") }),
    href: t.string({ description: page("href") }),
    parent: t.id({ description: page("parent") }),
    position: t.field({ type: PagePositionInput, description: page("position") }),
  }),
});

const file = (key: string) => describeInputField(fileUploadSchema, key);

const FileUploadInput = builder.inputType("FileUploadInput", {
  description: "A file to add to the content, its bytes inline.",
  fields: (t) => ({
    name: t.string({ required: true, description: file("name") }),
    contentType: t.string({ required: true, description: file("contentType") }),
    content: t.string({ required: true, description: file("content") }),
    width: t.int({ description: file("width") }),
    height: t.int({ description: file("height") }),
  }),
});

const ContentChangeTypeEnum = publicEnum<string>("ContentChangeType", "What a content change does.", {
  insert: "Insert a page or a file.",
  update: "Update a page.",
  delete: "Delete a page (with its subpages) or a file.",
});

// The change schema is a union of shapes, so each field's rule is stated here, next to the shapes it allows.
const ContentChangeInput = builder.inputType("ContentChangeInput", {
  description:
    "One change: insert a page (`page`) or a file (`file`), update a page (`pageId` and `page`), delete a page " +
    "(`pageId`, with its subpages) or a file (`fileId`).",
  fields: (t) => ({
    type: t.field({
      type: ContentChangeTypeEnum,
      required: true,
      description: "What the change does.",
      extensions: checkedByService(contentChangesSchema, 3),
    }),
    pageId: t.id({ description: "The page to update or delete." }),
    fileId: t.id({ description: "The file to delete." }),
    page: t.field({
      type: PageChangeInput,
      description: "The page to insert (with a title), or the fields to update.",
    }),
    file: t.field({ type: FileUploadInput, description: "The file to insert." }),
  }),
});

export const ContentChangesInput = builder.inputType("ContentChangesInput", {
  description: "A batch of content changes, written all or nothing as one revision.",
  fields: (t) => ({
    changes: t.field({
      type: [ContentChangeInput],
      required: true,
      description: describeInputField(contentChangesSchema, "changes"),
    }),
  }),
});

const UpdateSpaceContentPayloadRef = payloadType<{ contentEdit: typeof ContentEditRef.$inferType }>(
  "updateSpaceContent",
  {
    contentEdit: { type: ContentEditRef, description: "The revision written." },
  },
);

builder.mutationFields((t) => ({
  updateSpaceContent: t.field({
    type: UpdateSpaceContentPayloadRef,
    ...describeMutation(
      "Edits the space's content directly, as one new revision that becomes the space's content. Needs the edit " +
        "role on a space that is not locked.",
      {
        NOT_FOUND: "no such space for the caller",
        FORBIDDEN: "below the edit role, or the space is locked",
        BAD_USER_INPUT: "invalid changes",
        CONFLICT: "a stale base revision",
      },
    ),
    args: {
      spaceId: t.arg.id({ required: true, description: "The space to edit." }),
      input: t.arg({ type: ContentChangesInput, required: true, description: "The changes to write." }),
    },
    resolve: async (_root, args, ctx) => ({ contentEdit: await updateSpaceContent(ctx, args.spaceId, args.input) }),
  }),
}));
