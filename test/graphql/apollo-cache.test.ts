import { ApolloClient, gql, HttpLink, InMemoryCache, type Reference } from "@apollo/client";
import { Client, fetchExchange } from "@urql/core";
import { cacheExchange } from "@urql/exchange-graphcache";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addMember } from "../../src/modules/user/user.service.ts";
import { listen, type SeededOrganization, seedOrganization, startTestApp, type TestApp } from "../helpers/app.ts";
import { countingFetch, warningsOf } from "../helpers/cache-clients.ts";

/*
 * Apollo Client's normalized cache (`InMemoryCache`, keyed by `__typename` and `id`, its defaults) against a real
 * listening server: what the cache answers after a sequence of reads and writes must be what the server holds.
 */

const OrganizationMembers = gql`
  query ApolloOrganizationMembers($id: ID!) {
    organization(id: $id) {
      id
      members(first: 100) { totalCount nodes { id userId role user { id email } } }
    }
  }
`;

const MemberRole = gql`
  fragment ApolloMemberRole on Member { id userId role }
`;

const SpaceAndChangeRequestPages = gql`
  query ApolloPages($spaceId: ID!, $changeRequestId: ID!) {
    space(id: $spaceId) {
      id
      content { id pages { id pageId title } }
      changeRequest(id: $changeRequestId) { id content { id pages { id pageId title } } }
    }
  }
`;

const CreateSpace = gql`
  mutation ApolloCreateSpace($organizationId: ID!) {
    createSpace(input: { organizationId: $organizationId, title: "Cached" }) { space { id } }
  }
`;

const WriteSpace = gql`
  mutation ApolloWriteSpace($spaceId: ID!, $changes: [ContentChangeInput!]!) {
    updateSpaceContent(input: { spaceId: $spaceId, changes: $changes }) { contentEdit { inserted { contentId } } }
  }
`;

const CreateChangeRequest = gql`
  mutation ApolloCreateChangeRequest($spaceId: ID!) {
    createChangeRequest(input: { spaceId: $spaceId, subject: "Rename" }) { changeRequest { id } }
  }
`;

const WriteChangeRequest = gql`
  mutation ApolloWriteChangeRequest($spaceId: ID!, $changeRequestId: ID!, $changes: [ContentChangeInput!]!) {
    updateChangeRequestContent(input: { spaceId: $spaceId, changeRequestId: $changeRequestId, changes: $changes }) {
      contentEdit { revisionId }
    }
  }
`;

const AddMember = gql`
  mutation ApolloAddMember($organizationId: ID!, $email: String!) {
    addOrganizationMember(input: { organizationId: $organizationId, email: $email, role: READ }) {
      memberEdge { cursor node { id userId role user { id email } } }
    }
  }
`;

const RemoveMember = gql`
  mutation ApolloRemoveMember($organizationId: ID!, $userId: ID!) {
    removeOrganizationMember(input: { organizationId: $organizationId, userId: $userId }) { removedId }
  }
`;

interface MemberNode {
  id: string;
  userId: string;
  role: string | null;
  user: { id: string; email: string };
}
interface MembersData {
  organization: { id: string; members: { totalCount: number; nodes: MemberNode[] } };
}
/** An organization's `members` as the cache stores it: the nodes are references to normalized members. */
interface MembersField {
  totalCount: number;
  nodes: Reference[];
}
interface PagesData {
  space: {
    content: { id: string; pages: { id: string; pageId: string; title: string }[] };
    changeRequest: { content: { id: string; pages: { id: string; pageId: string; title: string }[] } };
  };
}

let t: TestApp;
let server: { url: string; close(): Promise<void> };
let first: SeededOrganization;
let second: SeededOrganization;

/** A client with its own, empty cache, as a front end starts. */
function apolloClient(token: string) {
  return new ApolloClient({
    link: new HttpLink({ uri: `${server.url}/graphql`, headers: { authorization: `Bearer ${token}` } }),
    cache: new InMemoryCache(),
  });
}

/** What the server holds now: the same query through a client that caches nothing. */
async function fromServer<Data>(token: string, query: typeof OrganizationMembers, variables: object) {
  const { data } = await apolloClient(token).query<Data>({ query, variables, fetchPolicy: "no-cache" });
  return data as Data;
}

beforeAll(async () => {
  t = await startTestApp();
  server = await listen(t.app);
  first = await seedOrganization(t.db, "Apollo first");
  second = await seedOrganization(t.db, "Apollo second");
  // The first organization's admin is a read member of the second.
  await addMember(t.db.prisma, second.organizationId, first.members.admin.id, "read", new Date());
});

afterAll(() => server.close());

describe("Apollo Client's InMemoryCache over the gateway", () => {
  it("keeps one person's memberships of two organizations apart, each with its own role", async () => {
    const person = first.members.admin;
    const client = apolloClient(person.token);
    for (const organization of [first, second]) {
      await client.query({ query: OrganizationMembers, variables: { id: organization.organizationId } });
    }

    const roleIn = async (organization: SeededOrganization) => {
      const cached = client.readQuery<MembersData>({
        query: OrganizationMembers,
        variables: { id: organization.organizationId },
      });
      const membership = cached?.organization.members.nodes.find((node) => node.userId === person.id);
      const fragment = client.readFragment<{ role: string }>({
        id: client.cache.identify({ __typename: "Member", id: membership?.id }),
        fragment: MemberRole,
      });
      return { listed: membership?.role, byId: fragment?.role };
    };
    expect(await roleIn(first)).toEqual({ listed: "ADMIN", byId: "ADMIN" });
    expect(await roleIn(second)).toEqual({ listed: "READ", byId: "READ" });

    for (const organization of [first, second]) {
      const variables = { id: organization.organizationId };
      expect(client.readQuery({ query: OrganizationMembers, variables })).toEqual(
        await fromServer(person.token, OrganizationMembers, variables),
      );
    }
  });

  it("keeps a page of the main revision apart from the same page in a change request", async () => {
    const token = first.members.admin.token;
    const client = apolloClient(token);
    const { data: created } = await client.mutate<{ createSpace: { space: { id: string } } }>({
      mutation: CreateSpace,
      variables: { organizationId: first.organizationId },
    });
    const spaceId = created?.createSpace.space.id as string;
    const { data: written } = await client.mutate<{
      updateSpaceContent: { contentEdit: { inserted: { contentId: string }[] } };
    }>({
      mutation: WriteSpace,
      variables: { spaceId, changes: [{ type: "INSERT", page: { title: "Main title", markdown: "x" } }] },
    });
    const pageId = written?.updateSpaceContent.contentEdit.inserted[0]?.contentId as string;
    const { data: opened } = await client.mutate<{ createChangeRequest: { changeRequest: { id: string } } }>({
      mutation: CreateChangeRequest,
      variables: { spaceId },
    });
    const changeRequestId = opened?.createChangeRequest.changeRequest.id as string;
    await client.mutate({
      mutation: WriteChangeRequest,
      variables: {
        spaceId,
        changeRequestId,
        changes: [{ type: "UPDATE", pageId, page: { title: "Change request title" } }],
      },
    });

    const variables = { spaceId, changeRequestId };
    await client.query({ query: SpaceAndChangeRequestPages, variables });
    const cached = client.readQuery<PagesData>({ query: SpaceAndChangeRequestPages, variables });
    const main = cached?.space.content.pages[0];
    const inChangeRequest = cached?.space.changeRequest.content.pages[0];
    expect(main).toMatchObject({ pageId, title: "Main title" });
    expect(inChangeRequest).toMatchObject({ pageId, title: "Change request title" });
    expect(main?.id).not.toBe(inChangeRequest?.id);
    expect(cached).toEqual(await fromServer(token, SpaceAndChangeRequestPages, variables));
  });

  it("appends a created member and removes a deleted one through the payloads", async () => {
    const token = first.members.admin.token;
    const client = apolloClient(token);
    const variables = { id: first.organizationId };
    await client.query({ query: OrganizationMembers, variables });
    const organizationRef = client.cache.identify({ __typename: "Organization", id: first.organizationId });

    await client.mutate<{ addOrganizationMember: { memberEdge: { node: MemberNode } } }>({
      mutation: AddMember,
      variables: { organizationId: first.organizationId, email: "apollo-new@seed.test" },
      update: (cache, { data }) => {
        const node = data?.addOrganizationMember.memberEdge.node;
        if (!node) return;
        cache.modify({
          id: organizationRef,
          fields: {
            members: (existing, { toReference }) => {
              const members = existing as MembersField;
              const added = toReference({ __typename: "Member", id: node.id }) as Reference;
              return { ...members, totalCount: members.totalCount + 1, nodes: [...members.nodes, added] };
            },
          },
        });
      },
    });
    const afterAdd = client.readQuery<MembersData>({ query: OrganizationMembers, variables });
    expect(afterAdd?.organization.members.nodes.map((node) => node.user.email)).toContain("apollo-new@seed.test");

    const removed = first.members.edit;
    await client.mutate<{ removeOrganizationMember: { removedId: string } }>({
      mutation: RemoveMember,
      variables: { organizationId: first.organizationId, userId: removed.id },
      update: (cache, { data }) => {
        const removedId = data?.removeOrganizationMember.removedId;
        cache.modify({
          id: organizationRef,
          fields: {
            members: (existing, { readField }) => {
              const members = existing as MembersField;
              const nodes = members.nodes.filter((ref) => readField("id", ref) !== removedId);
              return { ...members, totalCount: members.totalCount - 1, nodes };
            },
          },
        });
        cache.evict({ id: cache.identify({ __typename: "Member", id: removedId }) });
        cache.gc();
      },
    });
    const afterRemove = client.readQuery<MembersData>({ query: OrganizationMembers, variables });
    expect(afterRemove?.organization.members.nodes.map((node) => node.userId)).not.toContain(removed.id);

    // The list as the cache holds it is the server's, but for order: appended at the end, the server lists the
    // newest first.
    const held = await fromServer<MembersData>(token, OrganizationMembers, variables);
    const byUser = (nodes: MemberNode[]) => [...nodes].sort((a, b) => a.userId.localeCompare(b.userId));
    expect(afterRemove?.organization.members.totalCount).toBe(held.organization.members.totalCount);
    expect(byUser(afterRemove?.organization.members.nodes ?? [])).toEqual(byUser(held.organization.members.nodes));
  });
});

/*
 * A front end's screens through Apollo Client and urql's graphcache with no configuration at all: no type policies,
 * no `keys`, no schema. Every object they select has an id or is a connection's plumbing, so neither cache logs a
 * warning, and a narrower refetch does not take from the cache what a wider screen read (the viewer's permissions
 * are the node's own `viewerCan*` fields, merged into the node, not an object the refetch replaces).
 */

const OrganizationScreen = gql`
  query OrganizationScreen($organizationId: ID!) {
    organization(id: $organizationId) {
      id
      title
      viewerCanAdminister
      viewerCanCreateContent
      viewerCanListMembers
      sites(first: 20) { totalCount nodes { id title published visibility } }
      spaces(first: 20) { totalCount nodes { id title viewerCanView viewerCanEdit } }
    }
  }
`;

const SiteScreen = gql`
  query SiteScreen($organizationId: ID!, $siteId: ID!) {
    organization(id: $organizationId) {
      id
      site(id: $siteId) {
        id
        title
        sections(first: 50) { totalCount nodes { id title path default } }
        siteSpaces(first: 100) {
          totalCount
          nodes { id title path sectionId space { id title viewerCanEdit viewerCanAdminister } }
        }
      }
    }
  }
`;

const SpaceScreen = gql`
  query SpaceScreen($spaceId: ID!) {
    space(id: $spaceId) {
      id
      title
      emoji
      viewerCanEdit
      viewerCanComment
      viewerCanMerge
      viewerCanAdminister
      content { id pages { id pageId title path pages { id pageId title path } } }
    }
  }
`;

/** A space as a list row shows it: a subset of `SpaceScreen`'s fields, refetched. */
const SpaceRow = gql`
  query SpaceRow($spaceId: ID!) {
    space(id: $spaceId) { id title viewerCanEdit }
  }
`;

interface ScreenFixture {
  organization: SeededOrganization;
  siteId: string;
  spaceId: string;
}

/** An organization with two sites of two sections, each of two site spaces; the first space has nested pages. */
async function seedScreens(): Promise<ScreenFixture> {
  const organization = await seedOrganization(t.db, "Screens");
  const token = organization.members.admin.token;
  const orgPath = `/orgs/${organization.organizationId}`;
  const spaceIds: string[] = [];
  const siteIds: string[] = [];
  for (let s = 0; s < 2; s++) {
    const site = await t.rest<{ id: string }>("POST", `${orgPath}/sites`, { token, body: { title: `Site ${s}` } });
    siteIds.push(site.body.id);
    const base = `${orgPath}/sites/${site.body.id}`;
    for (let i = 0; i < 2; i++) {
      const spaces: string[] = [];
      for (let j = 0; j < 2; j++) {
        const space = await t.rest<{ id: string }>("POST", `${orgPath}/spaces`, {
          token,
          body: { title: `S${i}-${j}` },
        });
        spaces.push(space.body.id);
      }
      const section = await t.rest<{ id: string }>("POST", `${base}/sections`, { token, body: { spaceId: spaces[0] } });
      expect(section.status).toBe(201);
      for (const spaceId of spaces.slice(1)) {
        const added = await t.rest("POST", `${base}/site-spaces`, {
          token,
          body: { spaceId, sectionId: section.body.id },
        });
        expect(added.status).toBe(201);
      }
      spaceIds.push(...spaces);
    }
  }
  const spaceId = spaceIds[0] as string;
  const written = await apolloClient(token).mutate({
    mutation: WriteSpace,
    variables: {
      spaceId,
      changes: [
        { type: "INSERT", page: { title: "Guide", markdown: "# Guide" } },
        { type: "INSERT", page: { title: "Reference", markdown: "# Reference" } },
      ],
    },
  });
  expect(written.error).toBeUndefined();
  return { organization, siteId: siteIds[0] as string, spaceId };
}

/** A result without the `__typename`s one cache adds to the selection and the other does not. */
function withoutTypenames(data: unknown): unknown {
  return JSON.parse(JSON.stringify(data, (key, value) => (key === "__typename" ? undefined : value)));
}

function unconfiguredApollo(token: string, counter: ReturnType<typeof countingFetch>) {
  return new ApolloClient({
    link: new HttpLink({
      uri: `${server.url}/graphql`,
      headers: { authorization: `Bearer ${token}` },
      fetch: counter.fetch,
    }),
    cache: new InMemoryCache(),
  });
}

function unconfiguredUrql(token: string, counter: ReturnType<typeof countingFetch>) {
  return new Client({
    url: `${server.url}/graphql`,
    exchanges: [cacheExchange(), fetchExchange],
    fetchOptions: { headers: { authorization: `Bearer ${token}` } },
    fetch: counter.fetch,
  });
}

describe("a front end's screens through caches with no configuration", () => {
  let screens: ScreenFixture;

  beforeAll(async () => {
    screens = await seedScreens();
  });

  it("Apollo Client: no warning, and the wide space screen is answered from the cache after a narrow refetch", async () => {
    const { organization, siteId, spaceId } = screens;
    const counter = countingFetch();
    const client = unconfiguredApollo(organization.members.admin.token, counter);
    const warnings = await warningsOf(async () => {
      const org = await client.query({
        query: OrganizationScreen,
        variables: { organizationId: organization.organizationId },
      });
      expect(org.error).toBeUndefined();
      expect(org.data).toMatchObject({ organization: { viewerCanAdminister: true, sites: { totalCount: 2 } } });
      const site = await client.query({
        query: SiteScreen,
        variables: { organizationId: organization.organizationId, siteId },
      });
      expect(site.error).toBeUndefined();
      expect(site.data).toMatchObject({
        organization: { site: { sections: { totalCount: 2 }, siteSpaces: { totalCount: 4 } } },
      });
      const space = await client.query({ query: SpaceScreen, variables: { spaceId } });
      expect(space.error).toBeUndefined();
      expect(space.data).toMatchObject({ space: { viewerCanEdit: true, viewerCanAdminister: true } });
      await client.query({ query: SpaceRow, variables: { spaceId }, fetchPolicy: "network-only" });

      const sent = counter.requests;
      const again = await client.query({ query: SpaceScreen, variables: { spaceId } });
      expect(counter.requests).toBe(sent);
      expect(again.data).toEqual(space.data);
    });
    expect(warnings).toEqual([]);
  });

  it("urql's graphcache: no warning, and the wide space screen is a cache hit after a narrow refetch", async () => {
    const { organization, siteId, spaceId } = screens;
    const counter = countingFetch();
    const client = unconfiguredUrql(organization.members.admin.token, counter);
    const warnings = await warningsOf(async () => {
      const org = await client.query(OrganizationScreen, { organizationId: organization.organizationId }).toPromise();
      expect(org.error).toBeUndefined();
      expect(org.data).toMatchObject({ organization: { viewerCanAdminister: true, sites: { totalCount: 2 } } });
      const site = await client.query(SiteScreen, { organizationId: organization.organizationId, siteId }).toPromise();
      expect(site.error).toBeUndefined();
      expect(site.data).toMatchObject({ organization: { site: { siteSpaces: { totalCount: 4 } } } });
      const space = await client.query(SpaceScreen, { spaceId }).toPromise();
      expect(space.error).toBeUndefined();
      await client.query(SpaceRow, { spaceId }, { requestPolicy: "network-only" }).toPromise();

      const sent = counter.requests;
      const again = await client.query(SpaceScreen, { spaceId }).toPromise();
      expect(again.operation.context.meta?.cacheOutcome).toBe("hit");
      expect(counter.requests).toBe(sent);
      expect(again.data).toEqual(space.data);
    });
    expect(warnings).toEqual([]);
  });

  it("a read member's screens: their permissions say so, with no warning in either cache", async () => {
    const { organization, spaceId } = screens;
    const token = organization.members.read.token;
    const variables = { organizationId: organization.organizationId };
    const apollo = unconfiguredApollo(token, countingFetch());
    const urql = unconfiguredUrql(token, countingFetch());
    const expected = {
      organization: { viewerCanAdminister: false, viewerCanCreateContent: false, viewerCanListMembers: true },
    };
    const warnings = await warningsOf(async () => {
      const fromApollo = await apollo.query({ query: OrganizationScreen, variables });
      expect(fromApollo.error).toBeUndefined();
      expect(fromApollo.data).toMatchObject(expected);
      const fromUrql = await urql.query(OrganizationScreen, variables).toPromise();
      expect(fromUrql.error).toBeUndefined();
      expect(withoutTypenames(fromUrql.data)).toEqual(withoutTypenames(fromApollo.data));
      const space = await apollo.query({ query: SpaceScreen, variables: { spaceId } });
      expect(space.data).toMatchObject({ space: { viewerCanEdit: false, viewerCanComment: false } });
      const spaceFromUrql = await urql.query(SpaceScreen, { spaceId }).toPromise();
      expect(withoutTypenames(spaceFromUrql.data)).toEqual(withoutTypenames(space.data));
    });
    expect(warnings).toEqual([]);
  });
});
