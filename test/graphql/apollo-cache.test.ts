import { ApolloClient, gql, HttpLink, InMemoryCache, type Reference } from "@apollo/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addMember } from "../../src/modules/user/user.service.ts";
import { listen, type SeededOrganization, seedOrganization, startTestApp, type TestApp } from "../helpers/app.ts";

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
    createSpace(organizationId: $organizationId, input: { title: "Cached" }) { space { id } }
  }
`;

const WriteSpace = gql`
  mutation ApolloWriteSpace($spaceId: ID!, $input: ContentChangesInput!) {
    updateSpaceContent(spaceId: $spaceId, input: $input) { contentEdit { inserted { contentId } } }
  }
`;

const CreateChangeRequest = gql`
  mutation ApolloCreateChangeRequest($spaceId: ID!) {
    createChangeRequest(spaceId: $spaceId, input: { subject: "Rename" }) { changeRequest { id } }
  }
`;

const WriteChangeRequest = gql`
  mutation ApolloWriteChangeRequest($spaceId: ID!, $changeRequestId: ID!, $input: ContentChangesInput!) {
    updateChangeRequestContent(spaceId: $spaceId, changeRequestId: $changeRequestId, input: $input) {
      contentEdit { revisionId }
    }
  }
`;

const AddMember = gql`
  mutation ApolloAddMember($organizationId: ID!, $email: String!) {
    addOrganizationMember(organizationId: $organizationId, input: { email: $email, role: READ }) {
      memberEdge { cursor node { id userId role user { id email } } }
    }
  }
`;

const RemoveMember = gql`
  mutation ApolloRemoveMember($organizationId: ID!, $userId: ID!) {
    removeOrganizationMember(organizationId: $organizationId, userId: $userId) { removedId }
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
      variables: { spaceId, input: { changes: [{ type: "INSERT", page: { title: "Main title", markdown: "x" } }] } },
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
        input: { changes: [{ type: "UPDATE", pageId, page: { title: "Change request title" } }] },
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
