import { builder } from "../../graphql/builder.ts";
import { describeInputField } from "../../graphql/input-description.ts";
import { dateBoundFields, orderByDescription, orderInput, timeRangeKeys } from "../../graphql/list-order.ts";
import { OrganizationRef } from "../organization/organization.graphql.ts";
import { SpaceEdgeRef, SpaceRef } from "./space.graphql.ts";
import { listSpaces, spaceFilterSchema, spaceListOrder } from "./space-list.service.ts";

const SpaceOrderInput = orderInput("Space", "spaces", spaceListOrder.fields);

const spaceFilter = (key: keyof typeof spaceFilterSchema.shape) => describeInputField(spaceFilterSchema, key);

const SpaceFilterInput = builder.inputType("SpaceFilter", {
  description: "Conditions on the spaces listed, all of which must hold.",
  fields: (t) => ({
    titleContains: t.string({ description: spaceFilter("titleContains") }),
    visibility: t.string({ description: spaceFilter("visibility") }),
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
