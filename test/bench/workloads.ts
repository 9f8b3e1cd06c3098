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
            nodes { id title path siteSpaces { id path space { id title emoji } } }
          }
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

/** The target for a workload, as a ratio of ours to its reference. */
export type Target = { metric: "p50"; atMost: number } | { metric: "throughput"; atLeast: number };

export interface Workload {
  name: string;
  request: BenchRequest;
  /** What ours is compared with: the hand-written node:http + pg server, or bare graphql-yoga. */
  reference: "baseline" | "bare yoga";
  target: Target;
}

export function workloads(data: BenchData): Workload[] {
  const authorized = { authorization: `Bearer ${data.token}` };
  return [
    {
      name: "1. nested site structure (GraphQL)",
      request: {
        method: "POST",
        path: "/graphql",
        headers: { ...authorized, "content-type": "application/json" },
        body: JSON.stringify({ query: siteStructureQuery, variables: { id: data.organizationId } }),
      },
      reference: "baseline",
      target: { metric: "p50", atMost: 1.5 },
    },
    {
      name: "2a. listSiteSpaces limit=1000 (REST)",
      request: {
        method: "GET",
        path: `/v1/orgs/${data.organizationId}/sites/${data.siteId}/site-spaces?limit=1000`,
        headers: authorized,
      },
      reference: "baseline",
      target: { metric: "throughput", atLeast: 0.7 },
    },
    {
      name: "2b. 1000 change requests (REST)",
      request: { method: "GET", path: `/v1/spaces/${data.spaceId}/change-requests?limit=1000`, headers: authorized },
      reference: "baseline",
      target: { metric: "throughput", atLeast: 0.7 },
    },
    {
      name: "3. getSpaceById (REST)",
      request: { method: "GET", path: `/v1/spaces/${data.spaceId}`, headers: authorized },
      reference: "baseline",
      target: { metric: "throughput", atLeast: 0.7 },
    },
    {
      name: "4. { __typename }, no database (GraphQL)",
      request: {
        method: "POST",
        path: "/graphql",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ query: "{ __typename }" }),
      },
      reference: "bare yoga",
      target: { metric: "throughput", atLeast: 0.7 },
    },
  ];
}
