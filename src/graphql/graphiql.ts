import { graphiqlPage } from "../web/graphiql-page.ts";

/** GraphiQL's first query: the nested site structure, the read this gateway is built for. */
export const defaultGraphiQLQuery = `# Put your token in "Headers" below: {"Authorization": "Bearer <token>"}, then press the run button.
query SiteStructure {
  organizations(first: 10) {
    nodes {
      id
      title
      sites(first: 10) {
        nodes {
          title
          sections(first: 20) {
            nodes {
              title
              siteSpaces { nodes { path title space { title } } }
            }
          }
          siteSpaces(first: 20) { totalCount nodes { path space { title } } }
        }
      }
    }
  }
}
`;

/** GraphiQL's settings for yoga: the first query, the token header, and a page that carries its scripts. */
export function graphiqlSettings() {
  const page = graphiqlPage(() => import("@graphql-yoga/render-graphiql/graphiql"));
  return {
    page,
    options: {
      defaultQuery: defaultGraphiQLQuery,
      headers: JSON.stringify({ Authorization: "Bearer <token>" }, null, 2),
      defaultEditorToolsVisibility: "headers" as const,
      title: "Docs management GraphQL",
    },
  };
}
