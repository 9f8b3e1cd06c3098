import type { BenchData, BenchShape } from "./seed.ts";

export const benchShape: BenchShape = {
  sites: 20,
  sectionsPerSite: 10,
  siteSpacesPerSection: 10,
  spaces: 200,
  changeRequests: 1000,
  otherOrganizations: 9,
};

/** The signature read: organization -> sites -> sections -> site spaces -> space, in one GraphQL request. */
export const siteStructureQuery = /* GraphQL */ `
  query BenchSiteStructure($id: ID!) {
    organization(id: $id) {
      sites(first: 20) {
        nodes {
          id
          title
          sections(first: 10) {
            nodes { id title path siteSpaces { nodes { id path space { id title emoji } } } }
          }
        }
      }
    }
  }
`;

/** PostGraphile's equivalent of the nested read, as its generated schema names it (no GraphQL marker: it is not our schema, so codegen leaves it). */
const postgraphileSiteStructureQuery = `
  query PostgraphileSiteStructure($id: String!) {
    organizationById(id: $id) {
      sitesByOrganizationId(first: 20) {
        nodes {
          id
          title
          siteSectionsBySiteId(first: 10) {
            nodes { id title path siteSpacesBySectionId { nodes { id path spaceBySpaceId { id title emoji } } } }
          }
        }
      }
    }
  }
`;

const spaceQuery = /* GraphQL */ `
  query BenchSpace($id: ID!) { space(id: $id) { id title emoji visibility createdAt } }
`;
const postgraphileSpaceQuery = `
  query PostgraphileSpace($id: String!) { spaceById(id: $id) { id title emoji visibility createdAt } }
`;

const postgraphileSiteSpacesQuery = `
  query BenchSiteSpaces($id: String!) {
    siteById(id: $id) {
      siteSpacesBySiteId(first: 1000, orderBy: [POSITION_ASC, ID_ASC]) {
        totalCount
        nodes { id path title sectionId position createdAt spaceBySpaceId { id title emoji visibility createdAt updatedAt } }
      }
    }
  }
`;

const postgraphileChangeRequestsQuery = `
  query BenchChangeRequests($id: String!) {
    spaceById(id: $id) {
      changeRequestsBySpaceId(first: 1000, condition: { status: "open" }, orderBy: [CREATED_AT_DESC, ID_DESC]) {
        totalCount
        nodes {
          id number status subject createdAt updatedAt revisionId revisionInitial
          userByCreatedById { id displayName email photoUrl }
        }
      }
    }
  }
`;

export interface BenchRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string;
}

/** The target for a comparison, as a ratio of ours to the reference. */
export type Target = { metric: "p50"; atMost: number } | { metric: "throughput"; atLeast: number };

export type ReferenceName = "baseline" | "PostGraphile" | "bare yoga";

/** A reference server answering the workload's equivalent request; the baseline and bare yoga send the same bytes. */
export interface Comparison {
  reference: ReferenceName;
  request: BenchRequest;
  /** The target against this reference; without one the ratio is reported for information. */
  target?: Target;
}

export interface Workload {
  name: string;
  request: BenchRequest;
  comparisons: Comparison[];
}

const graphqlPost = (query: string, variables: Record<string, unknown>, headers: Record<string, string> = {}) => ({
  method: "POST",
  path: "/graphql",
  headers: { ...headers, "content-type": "application/json" },
  body: JSON.stringify({ query, variables }),
});

export function workloads(data: BenchData): Workload[] {
  const authorized = { authorization: `Bearer ${data.token}` };
  const get = (path: string) => ({ method: "GET", path, headers: authorized });
  const siteSpaces = get(`/v1/orgs/${data.organizationId}/sites/${data.siteId}/site-spaces?limit=1000`);
  const changeRequests = get(`/v1/spaces/${data.spaceId}/change-requests?limit=1000`);
  const space = get(`/v1/spaces/${data.spaceId}`);
  return [
    {
      name: "1. nested site structure (GraphQL)",
      request: graphqlPost(siteStructureQuery, { id: data.organizationId }, authorized),
      comparisons: [
        {
          reference: "baseline",
          request: graphqlPost(siteStructureQuery, { id: data.organizationId }, authorized),
          target: { metric: "p50", atMost: 1.5 },
        },
        {
          reference: "PostGraphile",
          request: graphqlPost(postgraphileSiteStructureQuery, { id: data.organizationId }),
          target: { metric: "throughput", atLeast: 2.0 },
        },
      ],
    },
    {
      name: "2a. listSiteSpaces limit=1000 (REST)",
      request: siteSpaces,
      comparisons: [
        { reference: "baseline", request: siteSpaces, target: { metric: "throughput", atLeast: 0.7 } },
        { reference: "PostGraphile", request: graphqlPost(postgraphileSiteSpacesQuery, { id: data.siteId }) },
      ],
    },
    {
      name: "2b. 1000 change requests (REST)",
      request: changeRequests,
      comparisons: [
        { reference: "baseline", request: changeRequests, target: { metric: "throughput", atLeast: 0.7 } },
        { reference: "PostGraphile", request: graphqlPost(postgraphileChangeRequestsQuery, { id: data.spaceId }) },
      ],
    },
    {
      name: "3a. getSpaceById (REST)",
      request: space,
      comparisons: [
        { reference: "baseline", request: space },
        {
          reference: "PostGraphile",
          request: graphqlPost(postgraphileSpaceQuery, { id: data.spaceId }),
          target: { metric: "throughput", atLeast: 1.2 },
        },
      ],
    },
    {
      name: "3b. space(id:) small read (GraphQL)",
      request: graphqlPost(spaceQuery, { id: data.spaceId }, authorized),
      comparisons: [
        {
          reference: "PostGraphile",
          request: graphqlPost(postgraphileSpaceQuery, { id: data.spaceId }),
          target: { metric: "throughput", atLeast: 1.2 },
        },
      ],
    },
    {
      name: "4. { __typename }, no database (GraphQL)",
      request: graphqlPost("{ __typename }", {}),
      comparisons: [
        {
          reference: "bare yoga",
          request: graphqlPost("{ __typename }", {}),
          target: { metric: "throughput", atLeast: 0.7 },
        },
      ],
    },
  ];
}
