import { type GraphQLEnumType, type GraphQLField, getNamedType, isObjectType } from "graphql";
import { beforeAll, describe, expect, it } from "vitest";
import { schema } from "../../src/app/schema.ts";
import { mutationErrorsOf } from "../../src/graphql/mutation-errors.ts";
import { userErrorDescriptions } from "../../src/lib/error-codes.ts";
import { type SeededOrganization, seedOrganization, startTestApp, type TestApp } from "../helpers/app.ts";
import { graphqlAnswer } from "../helpers/graphql-answer.ts";

let t: TestApp;
let org: SeededOrganization;

beforeAll(async () => {
  t = await startTestApp();
  org = await seedOrganization(t.db, "Mutation Payloads Org");
});

/** The whole answer, errors and data together, as an organization admin. */
const post = (query: string, variables: Record<string, unknown> = {}) =>
  graphqlAnswer(t, org.members.admin.token, query, variables);

/** `data` of an answer that must have no errors. */
async function data<Data>(query: string, variables: Record<string, unknown> = {}): Promise<Data> {
  const answer = await post(query, variables);
  expect(answer.errors).toBeUndefined();
  return answer.data as Data;
}

const mutations = Object.values(schema.getMutationType()?.getFields() ?? {});
const current = mutations.filter((field) => !field.deprecationReason);
/** Mutations that add a node to a list a front end shows: their payload carries the new node's edge. */
const creates = current.filter(
  (field) =>
    /^(create|post|duplicate)/.test(field.name) ||
    ["addOrganizationMember", "addTeamMember", "submitChangeRequestReview"].includes(field.name),
);
/** The legacy Git installation is no node (nothing to `@deleteRecord`): its payload is the space. */
const deletes = current.filter(
  (field) => field.name.startsWith("delete") && field.name !== "deleteLegacyGitInstallation",
);

const payloadFields = (field: GraphQLField<unknown, unknown>) => {
  const type = getNamedType(field.type);
  return isObjectType(type) ? type.getFields() : {};
};

describe("the schema's mutation payloads", () => {
  it("answers a <MutationName>Payload from every mutation that is not deprecated", () => {
    const misnamed = current
      .filter(
        (field) => getNamedType(field.type).name !== `${field.name[0]?.toUpperCase()}${field.name.slice(1)}Payload`,
      )
      .map((field) => field.name);
    expect(misnamed).toEqual([]);
  });

  it("gives every create payload the new node's edge, of the edge type of the list it joins", () => {
    expect(creates.length).toBeGreaterThan(15);
    const withoutEdge = creates
      .filter((field) => !Object.values(payloadFields(field)).some((f) => getNamedType(f.type).name.endsWith("Edge")))
      .map((field) => field.name);
    expect(withoutEdge).toEqual([]);
  });

  it("gives every delete payload the deleted node's id", () => {
    expect(deletes.length).toBeGreaterThan(10);
    const withoutId = deletes
      .filter((field) => getNamedType(payloadFields(field).deletedId?.type ?? field.type).name !== "ID")
      .map((field) => field.name);
    expect(withoutId).toEqual([]);
  });

  it("gives every current payload userErrors of its own <Mutation>UserError, with field, message and code", () => {
    const withoutUserErrors = current
      .filter((field) => {
        const prefix = `${field.name[0]?.toUpperCase()}${field.name.slice(1)}`;
        const userErrors = payloadFields(field).userErrors;
        const userError = userErrors && getNamedType(userErrors.type);
        if (String(userErrors?.type) !== `[${prefix}UserError!]!` || !isObjectType(userError)) return true;
        const { field: path, message, code } = userError.getFields();
        return (
          String(path?.type) !== "[String!]" ||
          String(message?.type) !== "String!" ||
          String(code?.type) !== `${prefix}UserErrorCode!`
        );
      })
      .map((field) => field.name);
    expect(current.length).toBeGreaterThan(80);
    expect(withoutUserErrors).toEqual([]);
  });

  it("lists in each mutation's code enum the user error codes its description lists", () => {
    const codes = (name: string) =>
      (schema.getType(`${name}UserErrorCode`) as GraphQLEnumType).getValues().map((value) => value.name);
    expect(codes("CreateAPIToken")).toEqual(["BAD_USER_INPUT", "TOO_MANY_API_TOKENS"]);
    expect(codes("DeleteTeam")).toEqual(["BAD_USER_INPUT"]);
  });

  it("lists each mutation's errors in its description", () => {
    expect(current.filter((field) => !field.description?.includes("Errors: UNAUTHENTICATED"))).toEqual([]);
  });

  it("prints each mutation's declared error codes, and answers as user errors those among them users can fix", () => {
    for (const field of current) {
      const declared = mutationErrorsOf(field.extensions);
      expect(Object.keys(declared ?? {})[0], field.name).toBe("UNAUTHENTICATED");
      const listed = Object.entries(declared ?? {}).map(([code, when]) => `${code} (${when})`);
      expect(field.description?.endsWith(` Errors: ${listed.join(", ")}.`), field.name).toBe(true);
      const prefix = `${field.name.charAt(0).toUpperCase()}${field.name.slice(1)}`;
      const codes = (schema.getType(`${prefix}UserErrorCode`) as GraphQLEnumType)
        .getValues()
        .map((value) => value.name);
      const userFixable = Object.keys(declared ?? {}).filter((code) => code in userErrorDescriptions);
      expect(codes, field.name).toEqual([...new Set(["BAD_USER_INPUT", ...userFixable])]);
    }
  });
});

const createSite = `mutation($organizationId: ID!, $title: String!) {
  createSite(input: { organizationId: $organizationId, title: $title }) {
    site { id title }
    siteEdge { cursor node { id } }
  }
}`;

interface CreatedSite {
  createSite: { site: { id: string; title: string }; siteEdge: { cursor: string; node: { id: string } } };
}

async function newSpace(title: string): Promise<string> {
  const created = await data<{ createSpace: { space: { id: string } } }>(
    `mutation($organizationId: ID!, $title: String!) {
      createSpace(input: { organizationId: $organizationId, title: $title }) { space { id } }
    }`,
    { organizationId: org.organizationId, title },
  );
  return created.createSpace.space.id;
}

async function newSiteSpace(siteId: string, spaceId: string): Promise<string> {
  const added = await data<{ createSiteSpace: { siteSpace: { id: string }; siteSpaceEdge: { node: { id: string } } } }>(
    `mutation($organizationId: ID!, $siteId: ID!, $spaceId: ID!) {
      createSiteSpace(input: { organizationId: $organizationId, siteId: $siteId, spaceId: $spaceId }) {
        siteSpace { id }
        siteSpaceEdge { node { id } }
      }
    }`,
    { organizationId: org.organizationId, siteId, spaceId },
  );
  expect(added.createSiteSpace.siteSpaceEdge.node.id).toBe(added.createSiteSpace.siteSpace.id);
  return added.createSiteSpace.siteSpace.id;
}

describe("mutation payloads over HTTP", () => {
  it("answers a new site's edge whose cursor is the list's own and pages on with after:", async () => {
    const first = await data<CreatedSite>(createSite, { organizationId: org.organizationId, title: "Edge one" });
    t.clock.advance(1000);
    const second = await data<CreatedSite>(createSite, { organizationId: org.organizationId, title: "Edge two" });
    expect(first.createSite.siteEdge.node.id).toBe(first.createSite.site.id);

    const listed = await data<{
      organization: { sites: { edges: { cursor: string; node: { id: string } }[] } };
    }>(`query($id: ID!) { organization(id: $id) { sites(first: 100) { edges { cursor node { id } } } } }`, {
      id: org.organizationId,
    });
    const listedFirst = listed.organization.sites.edges.find((edge) => edge.node.id === first.createSite.site.id);
    expect(listedFirst?.cursor).toBe(first.createSite.siteEdge.cursor);

    const after = await data<{ organization: { sites: { nodes: { id: string }[] } } }>(
      `query($id: ID!, $after: String) { organization(id: $id) { sites(first: 100, after: $after) { nodes { id } } } }`,
      { id: org.organizationId, after: first.createSite.siteEdge.cursor },
    );
    expect(after.organization.sites.nodes.map((node) => node.id)).toEqual([second.createSite.site.id]);
  });

  it("answers the deleted site space's id as deletedId", async () => {
    const { createSite: created } = await data<CreatedSite>(createSite, {
      organizationId: org.organizationId,
      title: "Deletes",
    });
    const siteSpaceId = await newSiteSpace(created.site.id, await newSpace("Shown then removed"));
    const deleted = await data<{ deleteSiteSpace: { deletedId: string } }>(
      `mutation($organizationId: ID!, $siteId: ID!, $siteSpaceId: ID!) {
        deleteSiteSpace(input: { organizationId: $organizationId, siteId: $siteId, siteSpaceId: $siteSpaceId }) { deletedId }
      }`,
      { organizationId: org.organizationId, siteId: created.site.id, siteSpaceId },
    );
    expect(deleted.deleteSiteSpace.deletedId).toBe(siteSpaceId);
  });

  it("answers a moved item's new position among its siblings", async () => {
    const { createSite: created } = await data<CreatedSite>(createSite, {
      organizationId: org.organizationId,
      title: "Moves",
    });
    const first = await newSiteSpace(created.site.id, await newSpace("Moves first"));
    const second = await newSiteSpace(created.site.id, await newSpace("Moves second"));
    const sorted = await data<{ sortSiteStructure: { item: { id: string }; position: number } }>(
      `mutation($input: SortSiteStructureInput!) {
        sortSiteStructure(input: $input) {
          item { ... on SiteSpace { id } }
          position
        }
      }`,
      {
        input: {
          organizationId: org.organizationId,
          siteId: created.site.id,
          item: { type: "SITE_SPACE", id: second },
          position: { before: { type: "SITE_SPACE", id: first } },
        },
      },
    );
    expect(sorted.sortSiteStructure).toEqual({ item: { id: second }, position: 0 });
  });

  it("keeps a succeeding aliased mutation's payload beside one that fails", async () => {
    const answer = await post(
      `mutation($organizationId: ID!) {
        failed: updateSite(input: { organizationId: $organizationId, siteId: "site_missing", title: "Nowhere" }) {
          site { id }
        }
        created: createSpace(input: { organizationId: $organizationId, title: "Kept payload" }) { space { title } }
      }`,
      { organizationId: org.organizationId },
    );
    expect(answer.errors?.map((error) => [error.path, error.extensions?.code])).toEqual([[["failed"], "NOT_FOUND"]]);
    expect(answer.data).toEqual({ failed: null, created: { space: { title: "Kept payload" } } });
  });
});

const createSpaceWithUserErrors = `mutation($input: CreateSpaceInput!) {
  createSpace(input: $input) {
    space { id }
    userErrors { field message code }
  }
}`;

/** Two invalid values: a title over 50 characters and an emoji over 50. */
const twoBadFields = { title: "t".repeat(51), emoji: "e".repeat(51) };

interface UserErrorsAnswer {
  createSpace: { space: null; userErrors: { field: string[] | null; message: string; code: string }[] };
}

describe("userErrors over HTTP", () => {
  it("answers every invalid value as a user error with its input path and code, and a null result", async () => {
    const answered = await data<UserErrorsAnswer>(createSpaceWithUserErrors, {
      input: { organizationId: org.organizationId, ...twoBadFields },
    });
    expect(answered.createSpace.space).toBeNull();
    expect(answered.createSpace.userErrors).toEqual([
      { field: ["input", "title"], message: expect.stringMatching(/50/), code: "BAD_USER_INPUT" },
      { field: ["input", "emoji"], message: expect.stringMatching(/50/), code: "BAD_USER_INPUT" },
    ]);
  });

  it("answers an empty userErrors list on success", async () => {
    const answered = await data<{ createSpace: { space: { id: string }; userErrors: unknown[] } }>(
      createSpaceWithUserErrors,
      { input: { organizationId: org.organizationId, title: "Valid" } },
    );
    expect(answered.createSpace.space.id).toMatch(/\S/);
    expect(answered.createSpace.userErrors).toEqual([]);
  });

  it("keeps the failure a top-level error for an operation that does not select userErrors", async () => {
    const answer = await post(
      `mutation($input: CreateSpaceInput!) {
        createSpace(input: $input) { space { id } }
      }`,
      { input: { organizationId: org.organizationId, ...twoBadFields } },
    );
    expect(answer.errors?.map((error) => error.extensions?.code)).toEqual(["BAD_USER_INPUT"]);
    expect(answer.data).toEqual({ createSpace: null });
  });

  it("keeps a missing object a top-level error even when userErrors are selected", async () => {
    const answer = await post(
      `mutation($organizationId: ID!) {
        updateSite(input: { organizationId: $organizationId, siteId: "site_missing", title: "Nowhere" }) {
          site { id }
          userErrors { code }
        }
      }`,
      { organizationId: org.organizationId },
    );
    expect(answer.errors?.map((error) => error.extensions?.code)).toEqual(["NOT_FOUND"]);
    expect(answer.data).toEqual({ updateSite: null });
  });

  it("answers the same two invalid values over REST with today's 400 and one message naming both", async () => {
    const answered = await data<UserErrorsAnswer>(createSpaceWithUserErrors, {
      input: { organizationId: org.organizationId, ...twoBadFields },
    });
    const [title, emoji] = answered.createSpace.userErrors.map((error) => error.message);
    const response = await t.rest("POST", `/orgs/${org.organizationId}/spaces`, {
      token: org.members.admin.token,
      body: twoBadFields,
    });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ error: { code: 400, message: `Invalid input: title: ${title}; emoji: ${emoji}` } });
  });
});
