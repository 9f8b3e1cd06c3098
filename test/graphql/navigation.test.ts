import {
  buildClientSchema,
  type GraphQLSchema,
  getIntrospectionQuery,
  getNamedType,
  type IntrospectionQuery,
  isInputObjectType,
  isInterfaceType,
  isNonNullType,
  isObjectType,
} from "graphql";
import { ClientError } from "graphql-request";
import { beforeAll, describe, expect, it } from "vitest";
import { createSite, sitePath } from "../factories.ts";
import { graphql } from "../generated/gql.ts";
import { type SeededOrganization, seedOrganization, startTestApp, type TestApp } from "../helpers/app.ts";
import { present } from "../helpers/present.ts";

const Parents = graphql(`
  query NavigationParents($id: ID!) {
    organization(id: $id) {
      teams(first: 100) { nodes { organizationId organization { id title } } }
      spaces(first: 100) { nodes { organization { id } parent { id } revision { id } } }
      sites(first: 100) {
        nodes { organization { id } siteSpaces(first: 100) { nodes { siteId site { id organization { id } } } } }
      }
    }
  }
`);

const Ancestors = graphql(`
  query NavigationAncestors($spaceId: ID!, $sectionId: ID!, $changeRequestId: ID!, $commentId: ID!, $replyId: ID!) {
    space(id: $spaceId) {
      organizationId
      organization { id title }
      parentId
      parent { id title organization { id } }
      revisionId
      revision { id }
    }
    section: node(id: $sectionId) {
      ... on SiteSection { siteId site { id organization { id title } } }
    }
    changeRequest: node(id: $changeRequestId) {
      ... on ChangeRequest { space { id } revision { id space { id } changeRequest { id } } }
    }
    comment: node(id: $commentId) {
      ... on Comment {
        spaceId
        space { id }
        changeRequestId
        changeRequest { id space { id } }
        target { space { id } changeRequest { id } revision { id } }
      }
    }
    reply: node(id: $replyId) {
      ... on CommentReply { commentId comment { id changeRequest { id } } }
    }
  }
`);

const RenameSection = graphql(`
  mutation NavigationRenameSection($organizationId: ID, $siteId: ID, $siteSectionId: ID!, $title: String!) {
    updateSiteSection(input: { organizationId: $organizationId, siteId: $siteId, siteSectionId: $siteSectionId, title: $title }) {
      siteSection { id title site { id } }
    }
  }
`);

const AddTeamMember = graphql(`
  mutation NavigationAddTeamMember($teamId: ID!, $userId: ID!) {
    addTeamMember(input: { teamId: $teamId, userId: $userId }) { team { id organizationId } teamMember { team { role } } }
  }
`);

/**
 * ID fields that name a value inside their owner, not an object: a heading's anchor, a block's key in a document,
 * a feature's name.
 */
const valueKeys = new Set(["CommentTargetNode.key", "SearchSectionResult.anchor", "SiteFeature.name"]);

/** The current mutations that need two ids because they act on two objects, neither the other's parent. */
const actOnTwoObjects: Record<string, string> = {
  addSectionToGroup: "the group, and the section moved into it",
  removeSectionFromGroup: "the group, and the section taken out of it",
  addTeamMember: "the team, and the user added",
  removeTeamMember: "the team, and the user removed",
  removeRequestedReviewerFromChangeRequest: "the change request, and the user no longer asked",
  createSiteSection: "the site, and the space its first site space shows",
  createSiteSpace: "the site, and the space shown",
  applyTemplateToSpace: "the space, and the template applied",
  transferSpace: "the space, and the organization it moves to",
};

let t: TestApp;

beforeAll(async () => {
  t = await startTestApp();
});

/** An organization with `count` teams and `count` sites of one space each. */
async function seeded(count: number): Promise<SeededOrganization> {
  const org = await seedOrganization(t.db, `Navigation ${count}`);
  const token = org.members.admin.token;
  for (let i = 0; i < count; i++) {
    const team = await t.rest("PUT", `/orgs/${org.organizationId}/teams`, { token, body: { title: `Team ${i}` } });
    expect(team.status).toBe(201);
    const space = await t.rest<{ id: string }>("POST", `/orgs/${org.organizationId}/spaces`, {
      token,
      body: { title: `Space ${i}` },
    });
    await createSite(t, org, { title: `Site ${i}`, spaces: [space.body.id] });
  }
  return org;
}

async function measure(org: SeededOrganization) {
  const before = t.db.statementCount();
  const data = await t.graphql(org.members.read.token).request(Parents, { id: org.organizationId });
  return { statements: t.db.statementCount() - before, data };
}

describe("every node reaches its parents", () => {
  it("answers teams', spaces', sites' and site spaces' parents in the same number of statements for 1x and 4x", async () => {
    const small = await measure(await seeded(1));
    const largeOrg = await seeded(4);
    const large = await measure(largeOrg);
    expect(large.statements).toBe(small.statements);

    const organization = large.data.organization;
    expect(organization?.teams?.nodes).toHaveLength(4);
    expect(organization?.spaces?.nodes).toHaveLength(4);
    for (const space of organization?.spaces?.nodes ?? []) {
      expect(space.organization?.id).toBe(largeOrg.organizationId);
      expect(space.parent).toBeNull();
      expect(space.revision.id).toMatch(/^rev/);
    }
    expect(organization?.sites?.nodes).toHaveLength(4);
    for (const team of organization?.teams?.nodes ?? []) {
      expect(team).toEqual({
        organizationId: largeOrg.organizationId,
        organization: { id: largeOrg.organizationId, title: "Navigation 4" },
      });
    }
    for (const site of organization?.sites?.nodes ?? []) {
      expect(site.organization.id).toBe(largeOrg.organizationId);
      const [siteSpace] = present(site.siteSpaces).nodes;
      expect(siteSpace?.site.id).toBe(siteSpace?.siteId);
      expect(siteSpace?.site.organization.id).toBe(largeOrg.organizationId);
    }
  });
});

/** The schema the server answers introspection with, read over HTTP. */
async function servedSchema(): Promise<GraphQLSchema> {
  const org = await seedOrganization(t.db, "Navigation schema");
  const data = await t.graphql(org.members.read.token).request<IntrospectionQuery>(getIntrospectionQuery());
  return buildClientSchema(data);
}

describe("the served schema", () => {
  it("answers objects where a field is named for one, and no current mutation requires a parent id beside its object's", async () => {
    const schema = await servedSchema();
    const bareIds: string[] = [];
    for (const type of Object.values(schema.getTypeMap())) {
      if (type.name.startsWith("__") || !(isObjectType(type) || isInterfaceType(type))) continue;
      for (const field of Object.values(type.getFields())) {
        if (getNamedType(field.type).name !== "ID" || field.name === "id" || /Ids?$/.test(field.name)) continue;
        if (!valueKeys.has(`${type.name}.${field.name}`)) bareIds.push(`${type.name}.${field.name}`);
      }
    }
    expect(bareIds).toEqual([]);

    const mutations = Object.values(schema.getMutationType()?.getFields() ?? {});
    const current = mutations.filter((field) => !field.deprecationReason);
    expect(current.length).toBeGreaterThan(50);
    // The required ids of a mutation: its own `ID!` arguments and the `ID!` fields of the required inputs it takes
    // (lists of ids, such as the users asked to review, name no parent).
    const requiredIds = (args: (typeof current)[number]["args"]) =>
      args.flatMap((arg) => {
        if (String(arg.type) === "ID!") return [arg.name];
        const type = isNonNullType(arg.type) ? arg.type.ofType : undefined;
        if (!isInputObjectType(type)) return [];
        const ids = Object.values(type.getFields()).filter((field) => String(field.type) === "ID!");
        return ids.map((field) => `${arg.name}.${field.name}`);
      });
    const twoIds = current.filter((field) => requiredIds(field.args).length > 1).map((field) => field.name);
    // No parent id is required beside the object's own: what needs two ids acts on two objects.
    expect(twoIds.sort()).toEqual(Object.keys(actOnTwoObjects).sort());
  });
});

describe("reading up from any object", () => {
  it("reaches the organization, collection, site, change request, space and thread above it", async () => {
    const org = await seedOrganization(t.db, "Navigation up");
    const { admin, comment: commenter } = org.members;
    const collection = await t.rest<{ id: string }>("POST", `/orgs/${org.organizationId}/collections`, {
      token: admin.token,
      body: { title: "Shelf" },
    });
    expect(collection.status).toBe(201);
    const space = await t.rest<{ id: string; revision: string }>("POST", `/orgs/${org.organizationId}/spaces`, {
      token: admin.token,
      body: { title: "Upward", parent: collection.body.id },
    });
    expect(space.status).toBe(201);
    const site = await createSite(t, org, { title: "Upward site" });
    const section = await t.rest<{ id: string }>("POST", `${sitePath(org, site.id)}/sections`, {
      token: admin.token,
      body: { spaceId: space.body.id },
    });
    expect(section.status).toBe(201);
    const changeRequest = await t.rest<{ id: string }>("POST", `/spaces/${space.body.id}/change-requests`, {
      token: org.members.edit.token,
      body: { subject: "Upward" },
    });
    // Its first revision is the space's; an edit gives it a revision of its own.
    const edit = await t.rest<{ revision: string }>(
      "POST",
      `/spaces/${space.body.id}/change-requests/${changeRequest.body.id}/content`,
      { token: org.members.edit.token, body: { changes: [{ type: "insert", page: { title: "New" } }] } },
    );
    expect(edit.status).toBe(200);
    const thread = `/spaces/${space.body.id}/change-requests/${changeRequest.body.id}/comments`;
    const comment = await t.rest<{ id: string }>("POST", thread, {
      token: commenter.token,
      body: { body: { markdown: "Up we go" } },
    });
    expect(comment.status).toBe(200);
    const reply = await t.rest<{ id: string }>("POST", `${thread}/${comment.body.id}/replies`, {
      token: commenter.token,
      body: { body: { markdown: "Indeed" } },
    });

    const data = await t.graphql(commenter.token).request(Ancestors, {
      spaceId: space.body.id,
      sectionId: section.body.id,
      changeRequestId: changeRequest.body.id,
      commentId: comment.body.id,
      replyId: reply.body.id,
    });
    expect(data.space).toEqual({
      organizationId: org.organizationId,
      organization: { id: org.organizationId, title: "Navigation up" },
      parentId: collection.body.id,
      parent: { id: collection.body.id, title: "Shelf", organization: { id: org.organizationId } },
      revisionId: space.body.revision,
      revision: { id: space.body.revision },
    });
    expect(data.section).toEqual({
      siteId: site.id,
      site: { id: site.id, organization: { id: org.organizationId, title: "Navigation up" } },
    });
    expect(data.changeRequest).toEqual({
      space: { id: space.body.id },
      revision: {
        id: edit.body.revision,
        space: { id: space.body.id },
        changeRequest: { id: changeRequest.body.id },
      },
    });
    expect(data.comment).toEqual({
      spaceId: space.body.id,
      space: { id: space.body.id },
      changeRequestId: changeRequest.body.id,
      changeRequest: { id: changeRequest.body.id, space: { id: space.body.id } },
      target: {
        space: { id: space.body.id },
        changeRequest: { id: changeRequest.body.id },
        revision: { id: edit.body.revision },
      },
    });
    expect(data.reply).toEqual({
      commentId: comment.body.id,
      comment: { id: comment.body.id, changeRequest: { id: changeRequest.body.id } },
    });
  });
});

describe("mutations by the object's own id", () => {
  it("find the parents themselves, and refuse a parent id that is not the object's", async () => {
    const org = await seedOrganization(t.db, "Navigation writes");
    const admin = t.graphql(org.members.admin.token);
    const space = await t.rest<{ id: string }>("POST", `/orgs/${org.organizationId}/spaces`, {
      token: org.members.admin.token,
      body: { title: "Written" },
    });
    const site = await createSite(t, org, { title: "Written site" });
    const other = await createSite(t, org, { title: "Other site" });
    const section = await t.rest<{ id: string }>("POST", `${sitePath(org, site.id)}/sections`, {
      token: org.members.admin.token,
      body: { spaceId: space.body.id },
    });

    const renamed = await admin.request(RenameSection, { siteSectionId: section.body.id, title: "Renamed" });
    expect(renamed.updateSiteSection?.siteSection).toEqual({
      id: section.body.id,
      title: "Renamed",
      site: { id: site.id },
    });
    const listed = await t.rest<{ items: { id: string; title: string }[] }>(
      "GET",
      `${sitePath(org, site.id)}/sections`,
      {
        token: org.members.admin.token,
      },
    );
    expect(listed.body.items.find((item) => item.id === section.body.id)?.title).toBe("Renamed");

    const wrongSite = await admin
      .request(RenameSection, { siteId: other.id, siteSectionId: section.body.id, title: "Elsewhere" })
      .catch((error: unknown) => error);
    expect(wrongSite).toBeInstanceOf(ClientError);
    expect((wrongSite as ClientError).response.errors?.[0]?.extensions?.code).toBe("NOT_FOUND");
    const outsider = await seedOrganization(t.db, "Navigation outsider");
    const foreign = await t
      .graphql(outsider.members.admin.token)
      .request(RenameSection, { siteSectionId: section.body.id, title: "Taken over" })
      .catch((error: unknown) => error);
    expect((foreign as ClientError).response.errors?.[0]?.extensions?.code).toBe("NOT_FOUND");

    const team = await t.rest<{ id: string }>("PUT", `/orgs/${org.organizationId}/teams`, {
      token: org.members.admin.token,
      body: { title: "Writers" },
    });
    const added = await admin.request(AddTeamMember, { teamId: team.body.id, userId: org.members.edit.id });
    expect(added.addTeamMember).toEqual({
      team: { id: team.body.id, organizationId: org.organizationId },
      teamMember: { team: { role: "MEMBER" } },
    });
  });
});
