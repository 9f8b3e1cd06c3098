import type { BenchData, BenchShape } from "./seed.ts";

export const benchShape: BenchShape = { sites: 20, sectionsPerSite: 10, siteSpacesPerSection: 10, spaces: 200 };

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

export interface Workload {
  name: string;
  request: { method: string; path: string; headers: Record<string, string>; body?: string };
}

export function workloads(data: BenchData): Workload[] {
  return [
    {
      name: "nested site structure (GraphQL)",
      request: {
        method: "POST",
        path: "/graphql",
        headers: { authorization: `Bearer ${data.token}`, "content-type": "application/json" },
        body: JSON.stringify({ query: siteStructureQuery, variables: { id: data.organizationId } }),
      },
    },
  ];
}
