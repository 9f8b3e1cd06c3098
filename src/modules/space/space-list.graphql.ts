import { builder } from "../../graphql/builder.ts";
import { describeInputField } from "../../graphql/input-description.ts";
import { dateBoundFields, orderByDescription, orderInput, timeRangeKeys } from "../../graphql/list-order.ts";
import { MemberRef } from "../member/member.public.ts";
import { OrganizationRef } from "../organization/organization.public.ts";
import { MemberSpaceRef, SpaceEdgeRef, SpaceRef } from "./space.graphql.ts";
import { listMemberSpaces, memberSpaceListOrder } from "./space.service.ts";
import { listSpaces, spaceFilterSchema, spaceListOrder } from "./space-list.service.ts";
import { SpaceVisibilityEnum } from "./space-values.graphql.ts";

const SpaceOrderInput = orderInput("Space", "spaces", spaceListOrder.fields);
const MemberSpaceOrderInput = orderInput("MemberSpace", "a member's spaces", memberSpaceListOrder.fields);

const spaceFilter = (key: keyof typeof spaceFilterSchema.shape) => describeInputField(spaceFilterSchema, key);

const SpaceFilterInput = builder.inputType("SpaceFilter", {
  description: "Conditions on the spaces listed, all of which must hold.",
  fields: (t) => ({
    titleContains: t.string({ description: spaceFilter("titleContains") }),
    visibility: t.field({ type: SpaceVisibilityEnum, description: spaceFilter("visibility") }),
    ...dateBoundFields(t, spaceFilterSchema, timeRangeKeys),
  }),
});

builder.objectFields(OrganizationRef, (t) => ({
  spaces: t.connection(
    {
      type: SpaceRef,
      description:
        "The organization's live spaces the viewer can see, oldest first; members and guests " +
        "(listSpacesInOrganizationById).",
      args: {
        orderBy: t.arg({ type: [SpaceOrderInput], description: orderByDescription("oldest first") }),
        filter: t.arg({ type: SpaceFilterInput, description: "Conditions on the spaces listed." }),
      },
      resolve: (organization, args, ctx) => listSpaces(ctx, organization.id, args, args),
    },
    {},
    SpaceEdgeRef,
  ),
}));

builder.objectFields(MemberRef, (t) => ({
  spaces: t.connection({
    type: MemberSpaceRef,
    description:
      "Live spaces the member holds a user or team grant on, newest first; organization members, who see only the " +
      "spaces they may read themselves unless it is their own list (listSpacesForOrganizationMember).",
    args: {
      orderBy: t.arg({ type: [MemberSpaceOrderInput], description: orderByDescription("newest first") }),
    },
    resolve: (member, args, ctx) => listMemberSpaces(ctx, member.organizationId, member.userId, args, args.orderBy),
  }),
}));
