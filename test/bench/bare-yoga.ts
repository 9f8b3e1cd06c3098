import { createServer } from "node:http";
import { createSchema, createYoga } from "graphql-yoga";

// The reference for the no-database workload: graphql-yoga with its defaults and nothing of ours around it.
const yoga = createYoga({
  schema: createSchema({ typeDefs: "type Query { ok: Boolean }" }),
  graphqlEndpoint: "/graphql",
  landingPage: false,
  graphiql: false,
  logging: false,
});

createServer(yoga).listen(Number(process.env.PORT), "127.0.0.1");
